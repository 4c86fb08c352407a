"""The store on both backends: migrations match the tables, passes are unique per
(run, seat, trait, index), agent keys are kept only as hashes."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel, select

import judge.server.store.alignments
import judge.server.store.ingest_tables
import judge.server.store.labels
import judge.server.store.review_tables
import judge.server.store.tables
import judge.server.store.views  # noqa: F401
from judge.core.domain.judging import JudgePass
from judge.core.domain.run import parse_run
from judge.server.auth import hash_key
from judge.server.service.intake import canonical_body
from judge.server.service.keys import authenticate_agent, issue_key
from judge.server.store import runs as run_repo
from judge.server.store.db import normalise_url, transaction
from judge.server.store.migrate import alembic_config, current_revision
from judge.server.store.passes import insert_pass, stored_passes
from judge.server.store.tables import AgentKeyRow
from tests.conftest import example


def test_the_migrated_schema_matches_the_tables(engine: Engine) -> None:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, SQLModel.metadata)

    assert differences == []
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert current_revision(engine) == head == "0022_run_holds"


def _run(engine: Engine) -> None:
    run = parse_run(example("haggle"))
    body = canonical_body(run)
    with transaction(engine) as session:
        run_repo.insert_run(
            session, run=run, body_json=body.text, body_sha256=body.sha256, submitted_by="t"
        )


def test_a_pass_is_stored_whole_and_only_once(engine: Engine) -> None:
    _run(engine)
    judged = JudgePass(
        trait="integrity",
        index=2,
        score=0.4,
        rationale="r",
        cited_turns=[1, 3],
        raw_output="{}",
        model="m",
        prompt_tokens=900,
        cached_prompt_tokens=800,
        completion_tokens=20,
        cost_usd=0.001,
        latency_ms=12.5,
        attempts=2,
        parse_status="ok",
    )
    with transaction(engine) as session:
        insert_pass(session, run_id="haggle-0007", seat="buyer", judge_pass=judged)

    with pytest.raises(sa.exc.IntegrityError), transaction(engine) as session:
        insert_pass(session, run_id="haggle-0007", seat="buyer", judge_pass=judged)

    with transaction(engine) as session:
        assert stored_passes(session, run_id="haggle-0007") == {("buyer", "integrity", 2): judged}


def test_agent_keys_are_stored_as_hashes_only(engine: Engine) -> None:
    with transaction(engine) as session:
        key = issue_key(session, agent_id="agent-alpha", seat="buyer")
    with transaction(engine) as session:
        row = session.exec(select(AgentKeyRow)).one()
        identity = authenticate_agent(session, key=key)

    assert key.startswith(f"sk_live_{row.prefix}_") and len(key) > 60
    assert row.key_sha256 == hash_key(key) and key not in row.model_dump_json()
    assert (identity.agent_id, identity.seat) == ("agent-alpha", "buyer")


def test_plain_postgresql_urls_use_psycopg_3() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///./judge.db") == "sqlite:///./judge.db"
