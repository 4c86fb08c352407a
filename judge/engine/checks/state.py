"""The one seam between checks and a world's database (SQLite or PostgreSQL, each enforcing
read-only access itself; tests can swap in any object with the same methods)."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Protocol

from judge.core.domain.checks import POSTGRES_SCHEMES, Scalar
from judge.engine.checks.errors import CheckShapeError, CheckValueError
from judge.engine.checks.rows import Rows

_NO_ROW = (
    "the query returned no row; a check must return exactly one value "
    "(use COUNT(*) or COALESCE(…) to answer for an empty table)"
)
_ROWS = "the query returned more than one row; a check must return exactly one value"


class StateDatabase(Protocol):
    """A world's database, opened so that nothing run through it can change it."""

    def fetch(self, sql: str, params: Mapping[str, Scalar], *, max_rows: int) -> Rows:
        """Run one query; return up to ``max_rows + 1`` rows so callers see an excess
        (CheckError when refused, timed out, malformed or failed)."""

    def close(self) -> None: ...


def open_state(locator: str, *, base_dir: Path | None, timeout_s: float) -> StateDatabase:
    """Open the database a run names: a ``postgresql://`` URL, or a SQLite path (relative to
    `base_dir` when given); StateUnavailableError when it cannot be opened."""
    if locator.startswith(POSTGRES_SCHEMES):
        from judge.engine.checks.postgres_state import PostgresState

        return PostgresState.connect(locator, timeout_s=timeout_s)
    from judge.engine.checks.sqlite_state import SqliteState

    path = Path(locator)
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    return SqliteState.open(path, timeout_s=timeout_s)


def fetch_value(db: StateDatabase, sql: str, params: Mapping[str, Scalar]) -> Scalar:
    """A check's query's one value (CheckShapeError unless one row of one column)."""
    result = db.fetch(sql, params, max_rows=1)
    if result.columns != 1:
        raise CheckShapeError(
            f"the query returned {result.columns} columns; a check must select exactly one value"
        )
    if len(result.rows) != 1:
        raise CheckShapeError(_NO_ROW if not result.rows else _ROWS)
    return to_scalar(result.rows[0][0])


def to_scalar(value: object) -> Scalar:
    """A database cell as a JSON scalar (Decimal to int or float, dates to ISO text);
    CheckValueError for what a check cannot compare (blobs, arrays, records, NaN)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float) and not math.isnan(value):
        return value
    if isinstance(value, Decimal) and value.is_finite():
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    raise CheckValueError(
        f"the query answered {value!r} ({type(value).__name__}), which a check cannot compare; "
        "select a number, text, boolean or NULL"
    )
