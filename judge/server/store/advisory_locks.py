"""PostgreSQL session advisory locks on a name, each held on a connection of its own."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

_TRY = sa.text("SELECT pg_try_advisory_lock(hashtextextended(:name, 0))")
_UNLOCK = sa.text("SELECT pg_advisory_unlock(hashtextextended(:name, 0))")


def try_lock(engine: Engine, name: str) -> Connection | None:
    """The connection holding the lock on ``name``; None (nothing held) when another has it."""
    connection = engine.connect()
    try:
        taken = bool(connection.execute(_TRY, {"name": name}).scalar())
        connection.commit()
    except BaseException:
        connection.close()
        raise
    if taken:
        return connection
    connection.close()
    return None


def unlock(connection: Connection, name: str) -> None:
    """Release the lock ``connection`` holds on ``name``, and the connection with it."""
    try:
        connection.execute(_UNLOCK, {"name": name})
        connection.commit()
    except BaseException:
        connection.invalidate()  # never pooled again still holding the lock: closing frees it
        raise
    finally:
        connection.close()
