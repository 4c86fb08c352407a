"""SQLite snapshots, opened so that a check can only read them: four locks, each enough on
its own to stop a write, a deadline and size limits (docs/checks.md, "Checks can only read")."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path

from judge.core.domain.checks import Scalar
from judge.core.errors import CheckError
from judge.engine.checks.errors import CheckRefusedError, CheckTimeoutError, StateUnavailableError
from judge.engine.checks.rows import Rows

#: Functions a check may call: pure, deterministic, bounded.
SAFE_FUNCTIONS = frozenset(
    {
        # aggregates and window functions
        "avg", "count", "group_concat", "max", "min", "sum", "total",
        "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
        "lag", "lead", "first_value", "last_value", "nth_value",
        # scalars
        "abs", "char", "coalesce", "glob", "hex", "ifnull", "iif", "instr", "length",
        "like", "likelihood", "likely", "lower", "ltrim", "nullif", "printf", "format",
        "quote", "replace", "round", "rtrim", "sign", "substr", "substring", "trim",
        "typeof", "unicode", "unlikely", "upper",
        # dates
        "date", "time", "datetime", "julianday", "strftime", "unixepoch",
        # json
        "json", "json_array", "json_array_length", "json_extract", "json_object",
        "json_type", "json_valid", "json_quote", "->", "->>",
    }
)  # fmt: skip

_READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE}
_AUTHORIZER_ACTIONS = (
    "CREATE_INDEX", "CREATE_TABLE", "CREATE_TEMP_INDEX", "CREATE_TEMP_TABLE",
    "CREATE_TEMP_TRIGGER", "CREATE_TEMP_VIEW", "CREATE_TRIGGER", "CREATE_VIEW", "DELETE",
    "DROP_INDEX", "DROP_TABLE", "DROP_TEMP_INDEX", "DROP_TEMP_TABLE", "DROP_TEMP_TRIGGER",
    "DROP_TEMP_VIEW", "DROP_TRIGGER", "DROP_VIEW", "INSERT", "PRAGMA", "TRANSACTION", "UPDATE",
    "ATTACH", "DETACH", "ALTER_TABLE", "REINDEX", "ANALYZE", "CREATE_VTABLE", "DROP_VTABLE",
    "SAVEPOINT",
)  # fmt: skip
_ACTION_NAMES = {getattr(sqlite3, f"SQLITE_{name}"): name for name in _AUTHORIZER_ACTIONS}
_SCHEMA_TABLES = {"sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"}
_PROGRESS_EVERY = 1_000
_MAX_VALUE_BYTES = 10_000_000
_MAX_SQL_BYTES = 100_000


class _ReadOnlyAuthorizer:
    """Allows reading and safe functions; remembers what it denied, for the detail line."""

    def __init__(self) -> None:
        self.denied: list[str] = []

    def __call__(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, src: str | None
    ) -> int:
        if action in _READ_ACTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in SAFE_FUNCTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION:
            self.denied.append(f"the function {arg2}()")
        else:
            self.denied.append(_describe_action(action, arg1, arg2))
        return sqlite3.SQLITE_DENY


def _describe_action(action: int, arg1: str | None, arg2: str | None) -> str:
    name = _ACTION_NAMES.get(action, f"action {action}")
    if arg1 in _SCHEMA_TABLES:
        return f"changing the schema ({name} on {arg1})"
    return " ".join(part for part in (name, arg1, arg2) if part)


class SqliteState:
    """A SQLite file opened read-only, with an authorizer."""

    def __init__(self, conn: sqlite3.Connection, timeout_s: float) -> None:
        self._conn = conn
        self._timeout_s = timeout_s
        self._authorizer = _ReadOnlyAuthorizer()
        conn.set_authorizer(self._authorizer)

    @classmethod
    def open(cls, path: Path, *, timeout_s: float) -> SqliteState:
        """Open `path` read-only (StateUnavailableError when it is no SQLite database)."""
        if not path.is_file():
            raise StateUnavailableError(f"no SQLite database at {path}")
        try:
            conn = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
            )
            _lock_down(conn)
        except sqlite3.Error as exc:
            raise StateUnavailableError(f"cannot open {path} as a SQLite database: {exc}") from None
        return cls(conn, timeout_s)

    def fetch(self, sql: str, params: Mapping[str, Scalar], *, max_rows: int) -> Rows:
        deadline = time.monotonic() + self._timeout_s
        self._authorizer.denied.clear()
        self._conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_EVERY)
        try:
            cursor = self._conn.execute(sql, dict(params))
            columns = len(cursor.description or ())
            return Rows(columns, cursor.fetchmany(max_rows + 1))
        except sqlite3.Error as exc:
            raise self._explain(exc, time.monotonic() > deadline) from None
        finally:
            self._conn.set_progress_handler(None, 0)

    def _explain(self, exc: sqlite3.Error, late: bool) -> CheckError:
        message = str(exc)
        if late and "interrupt" in message:
            return CheckTimeoutError(f"the query did not finish within {self._timeout_s:g} s")
        if self._authorizer.denied:
            denied = ", ".join(dict.fromkeys(self._authorizer.denied))
            return CheckRefusedError(
                f"refused by the database: {denied} is not allowed; a check may only read"
            )
        if "readonly" in message or "one statement" in message:
            return CheckRefusedError(f"refused by the database: {message}")
        return CheckError(f"SQLite could not run the check: {message}")

    def close(self) -> None:
        self._conn.close()


def _lock_down(conn: sqlite3.Connection) -> None:
    """Make the connection read-only before the authorizer goes on (PRAGMA is denied after)."""
    conn.execute("PRAGMA query_only = ON")
    conn.execute("PRAGMA trusted_schema = OFF")
    if hasattr(conn, "enable_load_extension"):
        conn.enable_load_extension(False)
    conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE_BYTES)
    conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, _MAX_SQL_BYTES)
    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
