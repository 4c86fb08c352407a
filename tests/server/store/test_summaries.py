"""The console's store on both backends: runs scored before migration 0004 get their figures
from their stored scorecards, and the runs table pages newest first without gaps."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from judge.core.domain.scorecard import Scorecard
from judge.core.scoring.run_summary import run_figures
from judge.server.store import summaries as summary_repo
from judge.server.store.db import make_engine
from judge.server.store.migrate import upgrade
from judge.server.store.summaries import Cursor, RunFilters
from judge.server.store.tables import RunRow, utcnow
from tests import pg
from tests.core.scoring.test_run_summary import _card
from tests.pg import PostgresServer


@pytest.fixture(params=["sqlite", "postgres"])
def bare_engine(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_or_none: PostgresServer | None
) -> Engine:
    """An empty database (no migration applied yet)."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'bare.db'}")
        request.addfinalizer(engine.dispose)
        return engine
    if postgres_or_none is None:
        pytest.skip(pg.NO_POSTGRES)
    server = postgres_or_none
    name = pg.create_database(server)
    engine = make_engine(server.sqlalchemy_url(name))

    def drop() -> None:
        engine.dispose()
        pg.drop_database(server, name)

    request.addfinalizer(drop)
    return engine


def _insert_scored(connection: sa.Connection, card: Scorecard) -> None:
    now = utcnow()
    runs = sa.table(
        "runs",
        *(
            sa.column(c)
            for c in (
                "run_id",
                "scenario_id",
                "seed",
                "body_json",
                "body_sha256",
                "status",
                "submitted_by",
                "scoring_starts",
                "ranked_eligible",
                "leaderboard_class",
                "created_at",
                "updated_at",
            )
        ),
    )
    cards = sa.table(
        "scorecards",
        *(
            sa.column(c)
            for c in (
                "run_id",
                "scorecard_json",
                "measurement_era",
                "participation_gated",
                "ranked_eligible",
                "leaderboard_class",
                "created_at",
            )
        ),
    )
    connection.execute(
        runs.insert().values(
            run_id=card.run_id,
            scenario_id=card.scenario_id,
            seed=card.seed,
            body_json="{}",
            body_sha256="0" * 64,
            status="scored",
            submitted_by="test",
            scoring_starts=1,
            ranked_eligible=True,
            leaderboard_class="ranked",
            created_at=now,
            updated_at=now,
        )
    )
    connection.execute(
        cards.insert().values(
            run_id=card.run_id,
            scorecard_json=card.model_dump_json(),
            measurement_era=card.measurement_era.era_id,
            participation_gated=False,
            ranked_eligible=True,
            leaderboard_class="ranked",
            created_at=now,
        )
    )


def test_runs_scored_before_the_console_migration_get_their_figures(bare_engine: Engine) -> None:
    upgrade(bare_engine, "0001_initial_schema")
    card = _card()
    with bare_engine.begin() as connection:
        _insert_scored(connection, card)

    upgrade(bare_engine)

    with Session(bare_engine) as session:
        row = summary_repo.get_summary(session, run_id=card.run_id)
    assert row is not None
    expected = run_figures(card)
    assert (row.safety_min, row.safety_spread, row.composite) == (
        expected.safety_min,
        expected.safety_spread,
        expected.composite,
    )
    assert (row.attempt, row.review_state) == (1, "none")


def test_keyset_pages_cover_every_run_once_newest_first(engine: Engine) -> None:
    upgrade(engine)
    base = utcnow()
    with engine.begin() as connection:
        for i in range(7):
            card = _card().model_copy(update={"run_id": f"r-{i}"})
            _insert_scored(connection, card)
            when = base + timedelta(
                seconds=i // 2
            )  # pairs share a timestamp: the run id breaks the tie
            connection.execute(
                sa.update(RunRow).where(col(RunRow.run_id) == card.run_id).values(created_at=when)
            )
    seen: list[str] = []
    after: Cursor | None = None
    with Session(engine) as session:
        while page := summary_repo.list_runs(session, filters=RunFilters(), after=after, limit=3):
            seen += [r.run_id for r in page]
            after = Cursor(page[-1].created_at, page[-1].run_id)

    assert seen == ["r-6", "r-5", "r-4", "r-3", "r-2", "r-1", "r-0"]


def test_an_agents_own_run_list_walks_the_submitter_index_without_sorting(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'plan.db'}")
    upgrade(engine)
    statements: list[tuple[str, Any]] = []
    sa.event.listen(
        engine, "before_cursor_execute", lambda _c, _cur, s, p, *_: statements.append((s, p))
    )
    filters = RunFilters(agent_id="agent-a", seat="buyer", submitted_by="agent:agent-a")
    with Session(engine) as session:
        summary_repo.list_runs(session, filters=filters, after=None, limit=51)
    statement, params = statements[-1]
    with engine.connect() as connection:
        plan = " ".join(
            str(row[3])
            for row in connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params)
        )
    engine.dispose()
    assert "ix_runs_submitted_by_created_at" in plan
    assert "TEMP B-TREE" not in plan
