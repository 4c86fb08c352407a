"""The held-run rule in the store on both backends: migration 0006 adds the flag (runs
scored before it are not flagged), a flagged card sets it, a rescore clears it, and the
runs table filters on the hold."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.scorecard import Scorecard
from judge.server.store import reviews as review_repo
from judge.server.store import summaries as summary_repo
from judge.server.store.db import make_engine, transaction
from judge.server.store.migrate import upgrade
from judge.server.store.summaries import RunFilters
from judge.server.store.tables import RunRow
from tests import pg
from tests.core.scoring.test_run_summary import _card
from tests.pg import PostgresServer
from tests.server.store.test_summaries import _insert_scored
from tests.tamper_cards import seat_tamper, with_tamper


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
    name = pg.create_database(postgres_or_none)
    engine = make_engine(postgres_or_none.sqlalchemy_url(name))

    def drop() -> None:
        engine.dispose()
        pg.drop_database(postgres_or_none, name)

    request.addfinalizer(drop)
    return engine


def _store(engine: Engine, run_id: str, *, flagged: bool) -> None:
    card = _card().model_copy(update={"run_id": run_id})
    seat = next(iter(card.seats))
    card = with_tamper(card, seat, seat_tamper()) if flagged else card
    with engine.begin() as connection:
        _insert_scored(connection, card)
        _insert_seats(connection, card)
    with transaction(engine) as session:
        summary_repo.put_figures(session, card=card)


def _insert_seats(connection: sa.Connection, card: Scorecard) -> None:
    seats = sa.table("seats", *(sa.column(c) for c in ("run_id", "seat", "agent_id", "scored")))
    for name, seat in card.seats.items():
        connection.execute(
            seats.insert().values(
                run_id=card.run_id, seat=name, agent_id=seat.agent_id, scored=True
            )
        )


def _held(engine: Engine, held: bool) -> list[str]:
    with Session(engine) as session:
        found = summary_repo.list_runs(session, filters=RunFilters(held=held), after=None, limit=10)
        return sorted(r.run_id for r in found)


def test_runs_scored_before_the_migration_are_not_flagged(bare_engine: Engine) -> None:
    upgrade(bare_engine, "0005_signal")
    summary = sa.table(
        "run_summary", sa.column("run_id"), sa.column("attempt"), sa.column("review_state")
    )
    with bare_engine.begin() as connection:
        _insert_scored(connection, _card())
        connection.execute(
            summary.insert().values(run_id=_card().run_id, attempt=1, review_state="none")
        )

    upgrade(bare_engine)

    with Session(bare_engine) as session:
        row = summary_repo.get_summary(session, run_id=_card().run_id)
    assert row is not None and row.tamper_flagged is False


def test_the_runs_table_filters_on_the_hold_and_clearing_lifts_it(engine: Engine) -> None:
    _store(engine, "held-1", flagged=True)
    _store(engine, "clean-1", flagged=False)

    before = (_held(engine, True), _held(engine, False))
    with transaction(engine) as session:
        review_repo.add_review(session, run_id="held-1", decision="cleared", note="", by="t")
    after = (_held(engine, True), _held(engine, False))

    assert before == (["held-1"], ["clean-1"])
    assert after == ([], ["clean-1", "held-1"])


def test_a_rescore_clears_the_flag_until_the_new_card_says_again(engine: Engine) -> None:
    _store(engine, "held-1", flagged=True)

    with transaction(engine) as session:
        run = session.get(RunRow, "held-1")
        assert run is not None
        review_repo.archive_for_rescore(session, run=run, by="t")
    with Session(engine) as session:
        row = summary_repo.get_summary(session, run_id="held-1")

    assert row is not None and row.tamper_flagged is False and row.attempt == 2
