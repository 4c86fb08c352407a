"""A pass's row gives back the same pass: same-named columns copied, the three stored under
other names or as JSON turned back. Migration 0017 on SQLite and PostgreSQL: each stored pass
gains how many choices its request answered, a pass stored before it reads as a request of its
own (1), and going back to 0016 drops the column while keeping the passes. Migration 0019: each
pass keeps the reply format it was sent in, one stored before it reads as not recorded (None)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.judging import JudgePass
from judge.core.domain.run import parse_run
from judge.server.service.intake import canonical_body
from judge.server.store import passes as pass_repo
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from judge.server.store.migrate import alembic_config, current_revision, upgrade
from judge.server.store.passes import _values, judge_pass
from judge.server.store.tables import PassRow
from tests.conftest import example

UNSCORED = JudgePass(
    trait="integrity", index=0, model="m", parse_status="unparseable", unscored_reason="no verdict"
)


def test_a_pass_with_a_distribution_comes_back_from_its_row_unchanged() -> None:
    grid = [0.0] * 8 + [0.25, 0.5, 0.25]
    judged = UNSCORED.model_copy(
        update={
            "index": 3,
            "score": 0.9,
            "cited_turns": [2, 5],
            "prompt_tokens": 812,
            "cost_usd": 0.0021,
            "parse_status": "ok",
            "unscored_reason": None,
            "sampled_score": 1.0,
            "expected_score": 0.9,
            "score_distribution": grid,
            "score_entropy_bits": 1.5,
            "request_choices": 5,
            "reply_format": "json_object",
        }
    )
    row = PassRow(**_values(run_id="haggle-0007", seat="buyer", judge_pass=judged))
    assert (row.pass_index, row.cited_turns_json, row.request_choices) == (3, "[2, 5]", 5)
    assert row.reply_format == "json_object"
    assert judge_pass(row) == judged and judge_pass(row).shared


def test_an_unscored_pass_comes_back_without_a_distribution() -> None:
    row = PassRow(**_values(run_id="haggle-0007", seat="buyer", judge_pass=UNSCORED))
    assert row.score_distribution_json is None
    assert judge_pass(row) == UNSCORED and judge_pass(row).request_choices == 1
    assert judge_pass(row).reply_format is None


def _to(engine: Engine, revision: str, *, down: bool) -> None:
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def _columns(engine: Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("passes")}


def test_0017_keeps_every_pass_and_reads_an_older_one_as_a_request_of_its_own(
    engine: Engine,
) -> None:
    run = parse_run(example("haggle"))
    body = canonical_body(run)
    shared = JudgePass(
        trait="integrity", index=0, model="m", score=0.7, parse_status="ok", request_choices=5
    )
    with transaction(engine) as session:
        run_repo.insert_run(
            session, run=run, body_json=body.text, body_sha256=body.sha256, submitted_by="t"
        )
        pass_repo.insert_pass(session, run_id=run.run_id, seat="buyer", judge_pass=shared)

    _to(engine, "0016_alignments", down=True)
    assert "request_choices" not in _columns(engine)
    assert current_revision(engine) == "0016_alignments"
    upgrade(engine)

    assert "request_choices" in _columns(engine)
    with Session(engine) as session:
        stored = pass_repo.stored_passes(session, run_id=run.run_id)
    back = stored[("buyer", "integrity", 0)]
    # the choices were dropped with the column: the pass is whole, and reads as one request
    assert (back.score, back.request_choices, back.shared) == (0.7, 1, False)


def test_0019_keeps_every_pass_and_reads_an_older_one_as_a_format_not_recorded(
    engine: Engine,
) -> None:
    run = parse_run(example("haggle"))
    body = canonical_body(run)
    sent = JudgePass(
        trait="integrity", index=0, model="m", score=0.7, parse_status="ok", reply_format="grammar"
    )
    with transaction(engine) as session:
        run_repo.insert_run(
            session, run=run, body_json=body.text, body_sha256=body.sha256, submitted_by="t"
        )
        pass_repo.insert_pass(session, run_id=run.run_id, seat="buyer", judge_pass=sent)
    with Session(engine) as session:
        stored = pass_repo.stored_passes(session, run_id=run.run_id)
    assert stored[("buyer", "integrity", 0)].reply_format == "grammar"

    _to(engine, "0018_rubric_maps", down=True)
    assert "reply_format" not in _columns(engine)
    upgrade(engine)

    assert "reply_format" in _columns(engine)
    with Session(engine) as session:
        back = pass_repo.stored_passes(session, run_id=run.run_id)[("buyer", "integrity", 0)]
    assert (back.score, back.reply_format) == (0.7, None)
