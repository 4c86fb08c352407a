"""A run's scoring status in one Core statement: the hot read behind ``GET .../runs/{id}``.

The ORM path loaded the whole run row (its submitted body included) and counted the passes in
a second round trip; this reads only the status columns and the count together, as plain
values (docs/deploy.md, "Read performance").
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

import sqlalchemy as sa
from sqlmodel import Session

from judge.store.tables import PassRow, RunRow, as_utc


class RunStatusRow(NamedTuple):
    run_id: str
    scenario_id: str
    status: str
    reason: str | None
    reason_detail: str | None
    passes_total: int | None
    judge_model: str | None
    ranked_eligible: bool
    leaderboard_class: str
    created_at: datetime
    updated_at: datetime
    scored_at: datetime | None
    passes_done: int


_COLUMNS = RunStatusRow._fields[:-1]


def run_status_row(session: Session, *, run_id: str) -> RunStatusRow | None:
    """The run's status columns and how many passes are stored for it; None when no such run."""
    runs: sa.Table = RunRow.__table__  # type: ignore[attr-defined]
    passes: sa.Table = PassRow.__table__  # type: ignore[attr-defined]
    done = (
        sa.select(sa.func.count())
        .select_from(passes)
        .where(passes.c.run_id == runs.c.run_id)
        .scalar_subquery()
    )
    query = sa.select(*(runs.c[name] for name in _COLUMNS), done).where(runs.c.run_id == run_id)
    found = session.connection().execute(query).first()
    if found is None:
        return None
    row = RunStatusRow._make(found)
    return row._replace(
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        scored_at=as_utc(row.scored_at) if row.scored_at else None,
        passes_done=int(row.passes_done),
    )
