"""Migration 0015 on SQLite and PostgreSQL: it adds the ingest tables and changes nothing that
was stored, and going back to 0014 removes them whole (and forward again restores them)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge.core.domain.run import parse_run
from judge.server.service.intake import canonical_body
from judge.server.store import ingest as ingest_repo
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from judge.server.store.migrate import alembic_config, current_revision, upgrade
from judge.server.store.tables import RunRow
from tests.conftest import example

TABLES = {"ingest_keys", "ingest_spans", "ingest_traces", "eval_rules", "rule_runs"}


def _to(engine: Engine, revision: str, *, down: bool) -> None:
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def test_0015_adds_the_ingest_tables_and_keeps_what_was_stored(engine: Engine) -> None:
    run = parse_run(example("haggle"))
    body = canonical_body(run)
    with transaction(engine) as session:
        run_repo.insert_run(
            session, run=run, body_json=body.text, body_sha256=body.sha256, submitted_by="t"
        )
        spans = [ingest_repo.NewSpan("a" * 32, "b" * 16, True, True, "{}")]
        assert ingest_repo.store_spans(session, source="s", spans=spans) == 1

    _to(engine, "0014_seat_holds", down=True)
    assert TABLES.isdisjoint(sa.inspect(engine).get_table_names())
    assert current_revision(engine) == "0014_seat_holds"
    upgrade(engine)

    assert TABLES <= set(sa.inspect(engine).get_table_names())
    with Session(engine) as session:
        assert session.exec(select(RunRow.run_id)).all() == [run.run_id]
        assert ingest_repo.pending_spans(session, source="s") == 0
