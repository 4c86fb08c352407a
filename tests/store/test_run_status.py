"""A run's status in one Core statement, on both stores: the same figures the ORM path gives,
passes counted, and None for a run that does not exist."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.service.views import run_public
from judge.store import runs as run_repo
from judge.store.run_status import run_status_row

COLUMNS = ["run_id", "scenario_id", "status", "created_at", "updated_at", "scored_at"]
from judge.store.tables import RunRow
from tests.factories import run, scorecard, seat
from tests.scripted_service import store_scored


def test_a_scored_run_reads_as_the_orm_path_gives_it(engine: Engine) -> None:
    store_scored(engine, run("st-1"), scorecard("st-1", seat()))
    with Session(engine) as session:
        row = run_status_row(session, run_id="st-1", columns=COLUMNS)
        stored = run_repo.get_run(session, run_id="st-1")
        assert row is not None and stored is not None
        public = run_public(session, stored, owner=True)
    assert (row["status"], row["passes_done"], row["scenario_id"]) == ("scored", 0, "market-haggle")
    assert (row["created_at"], row["updated_at"], row["scored_at"]) == (
        public.created_at,
        public.updated_at,
        public.scored_at,
    )
    assert row["created_at"].tzinfo is not None and "body_json" not in row


def test_the_stored_passes_are_counted(engine: Engine) -> None:
    from judge.store.tables import PassRow

    store_scored(engine, run("st-2"))
    with Session(engine) as session:
        for index in range(3):
            session.add(
                PassRow(
                    run_id="st-2",
                    seat="buyer",
                    trait="t",
                    pass_index=index,
                    model="m",
                    parse_status="ok",
                )
            )
        session.commit()
        row = run_status_row(session, run_id="st-2", columns=COLUMNS)
    assert row is not None and (row["status"], row["passes_done"]) == ("queued", 3)


def test_a_missing_run_reads_as_none(engine: Engine) -> None:
    with Session(engine) as session:
        assert run_status_row(session, run_id="none-such", columns=COLUMNS) is None
        assert session.get(RunRow, "none-such") is None
