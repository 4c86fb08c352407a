"""Rate-limit events kept in PostgreSQL, so every replica counts against one window (by the
database's clock). An ``UNLOGGED`` table of coordination state, made with the job queue's schema
(:func:`judge.server.store.schema.upgrade_all`); on SQLite limits are in-process."""

from __future__ import annotations

from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

TABLE_DDL = """
CREATE UNLOGGED TABLE IF NOT EXISTS judge_rate_events (
    id bigserial PRIMARY KEY,
    bucket text NOT NULL,
    key text NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS judge_rate_events_key ON judge_rate_events (bucket, key, at);
CREATE INDEX IF NOT EXISTS judge_rate_events_at ON judge_rate_events (at);
"""

_LOCK = sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:bucket || chr(31) || :key, 1))")
_EXPIRE = sa.text(
    "DELETE FROM judge_rate_events WHERE bucket = :bucket AND key = :key"
    " AND at <= clock_timestamp() - make_interval(secs => :window)"
)
#: Seconds until the ``limit``-th newest event of the key leaves the window (None: fewer events).
_WAIT = sa.text(
    "SELECT extract(epoch FROM at + make_interval(secs => :window) - clock_timestamp())"
    " FROM judge_rate_events WHERE bucket = :bucket AND key = :key"
    " AND at > clock_timestamp() - make_interval(secs => :window)"
    " ORDER BY at DESC, id DESC OFFSET :offset LIMIT 1"
)
_ADD = sa.text("INSERT INTO judge_rate_events (bucket, key) VALUES (:bucket, :key)")
_TRIM = sa.text(
    "DELETE FROM judge_rate_events WHERE bucket = :bucket AND key = :key AND id NOT IN"
    " (SELECT id FROM judge_rate_events WHERE bucket = :bucket AND key = :key"
    "  ORDER BY id DESC LIMIT :limit)"
)
_NEWEST_GONE = sa.text(
    "DELETE FROM judge_rate_events WHERE id = (SELECT id FROM judge_rate_events"
    " WHERE bucket = :bucket AND key = :key ORDER BY id DESC LIMIT 1)"
)
_SWEEP = sa.text(
    "DELETE FROM judge_rate_events WHERE at <= clock_timestamp() - make_interval(secs => :window)"
)


class Window(NamedTuple):
    """One limiter's window: what its rows are filed under, its size and its length."""

    bucket: str
    limit: int
    window_s: float


def _params(window: Window, key: str) -> dict[str, object]:
    return {
        "bucket": window.bucket,
        "key": key,
        "limit": window.limit,
        "offset": window.limit - 1,
        "window": window.window_s,
    }


def wait_s(connection: Connection, *, window: Window, key: str) -> float:
    """Seconds until ``key`` may act again (0.0: now)."""
    wait = connection.execute(_WAIT, _params(window, key)).scalar()
    return 0.0 if wait is None else max(float(wait), 0.001)


def acquire(connection: Connection, *, window: Window, key: str) -> float:
    """Count an event for ``key`` if the window has room (0.0), else the seconds to wait.

    The key's advisory lock serialises replicas taking a slot of the same key at once."""
    params = _params(window, key)
    connection.execute(_LOCK, params)
    connection.execute(_EXPIRE, params)
    wait = wait_s(connection, window=window, key=key)
    if not wait:
        connection.execute(_ADD, params)
    return wait


def record(connection: Connection, *, window: Window, key: str) -> None:
    """Count an event for ``key`` (keeping at most ``limit`` rows for it)."""
    params = _params(window, key)
    connection.execute(_LOCK, params)
    connection.execute(_ADD, params)
    connection.execute(_TRIM, params)


def release(connection: Connection, *, window: Window, key: str) -> None:
    """Forget the newest event of ``key`` (the request it was counted for was refused)."""
    params = _params(window, key)
    connection.execute(_LOCK, params)
    connection.execute(_NEWEST_GONE, params)


def sweep(connection: Connection, *, window_s: float) -> int:
    """Delete every event older than the window; returns how many."""
    return connection.execute(_SWEEP, {"window": window_s}).rowcount
