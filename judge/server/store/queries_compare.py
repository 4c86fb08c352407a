"""Queries behind matched comparisons: an agent's scored runs."""

from __future__ import annotations

from sqlmodel import Session, col, select

from judge.server.store.tables import RunRow, SeatRow


def scored_run_ids_of(
    session: Session, *, agent_id: str, scenario_id: str | None = None
) -> list[str]:
    """Ids of the scored runs in which the agent holds a scored seat, oldest id first."""
    query = (
        select(RunRow.run_id)
        .join(SeatRow, col(SeatRow.run_id) == col(RunRow.run_id))
        .where(
            SeatRow.agent_id == agent_id, col(SeatRow.scored).is_(True), RunRow.status == "scored"
        )
    )
    if scenario_id is not None:
        query = query.where(RunRow.scenario_id == scenario_id)
    return sorted(set(session.exec(query).all()))
