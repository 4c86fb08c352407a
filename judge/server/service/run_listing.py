"""Listing runs, newest first, one keyset page at a time. Owners list every run; an agent key
only its self-reported runs in the key's seat. Items carry no figure of any seat."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel
from sqlmodel import Session

from judge.core.domain.status import RunStatus
from judge.server.auth import AgentIdentity
from judge.server.store import summaries as summary_repo
from judge.server.store.summaries import Cursor, RunFilters


class RunSummary(BaseModel):
    """One run in a list: what it is, where it stands, and where to read it."""

    run_id: str
    scenario_id: str
    status: RunStatus
    leaderboard_class: str
    measurement_era: str | None
    created_at: datetime


def list_runs(
    session: Session,
    *,
    filters: RunFilters,
    agent: AgentIdentity | None,
    after: Cursor | None,
    limit: int,
) -> list[RunSummary]:
    """Up to ``limit`` runs matching ``filters`` that the caller may list, after ``after``."""
    if agent is not None:
        if filters.agent_id not in (None, agent.agent_id):
            return []
        filters = filters._replace(
            agent_id=agent.agent_id, seat=agent.seat, submitted_by=f"agent:{agent.agent_id}"
        )
    rows = summary_repo.list_runs(session, filters=filters, after=after, limit=limit)
    # the listing's other columns (figures of seats) are not fields of a summary
    return [RunSummary.model_validate(r, from_attributes=True) for r in rows]
