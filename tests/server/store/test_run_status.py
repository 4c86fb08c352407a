"""A run's status in one Core statement, on both stores: the same figures the ORM path gives,
passes counted, and None for a run that does not exist."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.errors import NotFoundError
from judge.server.auth import AgentIdentity
from judge.server.service.views import RunProgress, run_status
from judge.server.store import passes as pass_repo
from judge.server.store import runs as run_repo
from judge.server.store.run_status import run_status_row
from judge.server.store.tables import RunRow
from tests.factories import run, scorecard, seat
from tests.scripted_service import store_scored

COLUMNS = ["run_id", "scenario_id", "status", "created_at", "updated_at", "scored_at"]


def run_public(session: Session, row: RunRow) -> RunProgress:
    """The status as the ORM path read it (the whole row, then the passes counted apart):
    the oracle the one-statement read is checked against."""
    fields = RunProgress.model_fields.keys() - {"reason", "passes_done"}
    return RunProgress.model_validate(
        {
            **row.model_dump(include=fields),
            "reason": f"{row.reason}: {row.reason_detail}" if row.reason_detail else row.reason,
            "passes_done": len(pass_repo.stored_passes(session, run_id=row.run_id)),
        }
    )


def test_a_scored_run_reads_as_the_orm_path_gives_it(engine: Engine) -> None:
    store_scored(engine, run("st-1"), scorecard("st-1", seat()))
    with Session(engine) as session:
        row = run_status_row(session, run_id="st-1", columns=COLUMNS)
        stored = run_repo.get_run(session, run_id="st-1")
        assert row is not None and stored is not None
        public = run_public(session, stored)
        assert run_status(session, run_id="st-1", agent=None) == public
    assert (row["status"], row["passes_done"], row["scenario_id"]) == ("scored", 0, "market-haggle")
    assert (row["created_at"], row["updated_at"], row["scored_at"]) == (
        public.created_at,
        public.updated_at,
        public.scored_at,
    )
    assert row["created_at"].tzinfo is not None and "body_json" not in row


def test_the_stored_passes_are_counted(engine: Engine) -> None:
    from judge.server.store.tables import PassRow

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


def test_an_agent_reads_the_status_of_its_own_seat_only_without_the_internal_detail(
    engine: Engine,
) -> None:
    store_scored(engine, run("st-3"), scorecard("st-3", seat(agent_id="agent-alpha")))
    with Session(engine) as session:
        stored = session.get(RunRow, "st-3")
        assert stored is not None
        stored.reason, stored.reason_detail = "judge_failed", "internal: provider said 500"
        session.add(stored)
        session.commit()
        mine = AgentIdentity(agent_id="agent-alpha", seat="buyer", prefix="p" * 12)
        other = AgentIdentity(agent_id="agent-beta", seat="buyer", prefix="q" * 12)
        seen = run_status(session, run_id="st-3", agent=mine)
        owners = run_status(session, run_id="st-3", agent=None)
        assert (seen.reason, owners.reason) == (
            "judge_failed",
            "judge_failed: internal: provider said 500",
        )
        assert seen.model_dump(exclude={"reason"}) == owners.model_dump(exclude={"reason"})
        for hidden in ("st-3", "none-such"):
            with pytest.raises(NotFoundError):
                run_status(session, run_id=hidden, agent=other if hidden == "st-3" else mine)
