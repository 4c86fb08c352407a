"""PostgreSQL worlds, read through a session that cannot write (each lock: docs/checks.md,
"Checks can only read")."""

from __future__ import annotations

import re  # stays on re: matches only our own database URL (to hide its password)
from collections.abc import Mapping

import psycopg
from psycopg import errors as pg_errors

from judge.core.domain.checks import Scalar
from judge.core.errors import CheckError
from judge.engine.checks.errors import CheckRefusedError, CheckTimeoutError, StateUnavailableError
from judge.engine.checks.rows import Rows
from judge.engine.checks.sqltext import is_query, to_pyformat

_CONNECT_TIMEOUT_S = 5
_PASSWORD = re.compile(r"(://[^:/@]*:)[^@]*@")
_POWERFUL_ROLE = """
SELECT r.rolsuper
    OR pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER')
    OR pg_has_role(current_user, 'pg_write_server_files', 'MEMBER')
FROM pg_roles AS r WHERE r.rolname = current_user
"""
_REFUSED = (
    pg_errors.ReadOnlySqlTransaction,
    pg_errors.InsufficientPrivilege,
    pg_errors.FeatureNotSupported,
)


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    return _PASSWORD.sub(r"\1***@", url)


class PostgresState:
    """A PostgreSQL database opened for reading only."""

    def __init__(self, conn: psycopg.Connection[tuple[object, ...]], timeout_s: float) -> None:
        self._conn = conn
        self._timeout_ms = str(max(1, round(timeout_s * 1000)))
        self._timeout_s = timeout_s

    @classmethod
    def connect(cls, url: str, *, timeout_s: float) -> PostgresState:
        """Connect read-only (StateUnavailableError when refused), refusing with
        CheckRefusedError a role that may do more than read."""
        try:
            conn = psycopg.connect(
                url,
                connect_timeout=_CONNECT_TIMEOUT_S,
                options="-c default_transaction_read_only=on",
            )
        except psycopg.Error as exc:
            raise StateUnavailableError(
                f"cannot reach PostgreSQL at {redact(url)}: {_first_line(exc)}"
            ) from None
        conn.read_only = True
        _refuse_powerful_role(conn)
        return cls(conn, timeout_s)

    def fetch(self, sql: str, params: Mapping[str, Scalar], *, max_rows: int) -> Rows:
        try:
            with self._conn.transaction(force_rollback=True):
                self._conn.execute(
                    "SELECT set_config('statement_timeout', %s, true)", [self._timeout_ms]
                )
                with self._conn.cursor(name="judge_check") as cursor:
                    cursor.execute(to_pyformat(sql), dict(params))
                    columns = len(cursor.description or ())
                    return Rows(columns, list(cursor.fetchmany(max_rows + 1)))
        except psycopg.Error as exc:
            raise self._explain(exc, sql) from None

    def _explain(self, exc: psycopg.Error, sql: str) -> CheckError:
        message = _first_line(exc)
        if isinstance(exc, pg_errors.SyntaxError) and not is_query(sql):
            return CheckRefusedError(
                f"refused by the database: only a query can run as a check ({message})"
            )
        if isinstance(exc, pg_errors.QueryCanceled):
            return CheckTimeoutError(f"the query did not finish within {self._timeout_s:g} s")
        if isinstance(exc, _REFUSED) or "multiple commands" in message:
            return CheckRefusedError(f"refused by the database: {message}")
        if isinstance(exc, psycopg.OperationalError):
            return StateUnavailableError(f"lost the PostgreSQL connection: {message}")
        return CheckError(f"PostgreSQL could not run the check: {message}")

    def close(self) -> None:
        self._conn.close()


def _refuse_powerful_role(conn: psycopg.Connection[tuple[object, ...]]) -> None:
    row = conn.execute(_POWERFUL_ROLE).fetchone()
    conn.rollback()
    if row is None or row[0]:
        user = conn.info.user
        conn.close()
        raise CheckRefusedError(
            f"refusing to run checks as PostgreSQL role {user!r}: it is a superuser or may run "
            "programs or write files on the server; connect with a role that can only SELECT"
        )


def _first_line(exc: psycopg.Error) -> str:
    primary = exc.diag.message_primary if hasattr(exc, "diag") else None
    return primary or (str(exc).splitlines() or [type(exc).__name__])[0]
