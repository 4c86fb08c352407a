"""A run's scoring status in one Core statement: the hot read behind ``GET .../runs/{id}``
(docs/deploy.md, "Read performance")."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session

from judge.server.store.tables import PassRow, RunRow, as_utc, table_of


def run_status_row(
    session: Session, *, run_id: str, columns: Sequence[str]
) -> dict[str, Any] | None:
    """The run's ``columns`` (times in UTC) and ``passes_done``; None when no such run."""
    query = _status_query(tuple(columns))
    found = session.connection().execute(query, {"run_id": run_id}).mappings().first()
    if found is None:
        return None
    return {k: as_utc(v) if isinstance(v, datetime) else v for k, v in found.items()}


@functools.lru_cache(maxsize=8)
def _status_query(columns: tuple[str, ...]) -> sa.Select[Any]:
    """The statement for one list of columns, built once."""
    runs = table_of(RunRow)
    passes = table_of(PassRow)
    done = (
        sa.select(sa.func.count())
        .select_from(passes)
        .where(passes.c.run_id == runs.c.run_id)
        .scalar_subquery()
    )
    return sa.select(*(runs.c[name] for name in columns), done.label("passes_done")).where(
        runs.c.run_id == sa.bindparam("run_id")
    )
