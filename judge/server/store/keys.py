"""Repository functions for agent keys (only hashes and public prefixes are stored)."""

from __future__ import annotations

from typing import NamedTuple

import sqlalchemy as sa
from sqlmodel import Session, col, select

from judge.server.store.tables import AgentKeyRow, table_of, utcnow


def insert_agent_key(
    session: Session,
    *,
    prefix: str,
    key_sha256: str,
    agent_id: str,
    seat: str,
    label: str | None = None,
) -> AgentKeyRow:
    row = AgentKeyRow(
        prefix=prefix, key_sha256=key_sha256, agent_id=agent_id, seat=seat, label=label
    )
    session.add(row)
    return row


class LiveKey(NamedTuple):
    """What checking a presented key needs of its unrevoked row."""

    prefix: str
    key_sha256: str
    agent_id: str
    seat: str


_KEYS = table_of(AgentKeyRow)
_LIVE = sa.and_(_KEYS.c.prefix == sa.bindparam("key_prefix"), _KEYS.c.revoked_at.is_(None))
#: Built once, at import: every request with an agent key asks it.
_LIVE_KEY = sa.select(*(_KEYS.c[name] for name in LiveKey._fields)).where(_LIVE)


def presented_key_is_live() -> sa.Exists:
    """SQL: the presented key (``key_prefix``, ``key_sha256``) is live and issued to the reader
    of :func:`judge.server.store.runs.agent_reads`, checked inside the read's own statement."""
    return sa.exists().where(
        _LIVE,
        _KEYS.c.key_sha256 == sa.bindparam("key_sha256"),
        _KEYS.c.agent_id == sa.bindparam("reader_agent"),
        _KEYS.c.seat == sa.bindparam("reader_seat"),
    )


def live_key_by_prefix(session: Session, *, prefix: str) -> LiveKey | None:
    found = session.connection().execute(_LIVE_KEY, {"key_prefix": prefix}).first()
    return None if found is None else LiveKey(*found)


def list_agent_keys(session: Session, *, agent_id: str | None = None) -> list[AgentKeyRow]:
    query = select(AgentKeyRow).order_by(col(AgentKeyRow.id))
    if agent_id is not None:
        query = query.where(AgentKeyRow.agent_id == agent_id)
    return list(session.exec(query).all())


def revoke_agent_key(session: Session, *, prefix: str) -> bool:
    """Revoke the live key of ``prefix``; False when there is none (unknown or revoked)."""
    revoke = sa.update(_KEYS).where(_LIVE).values(revoked_at=utcnow())
    done = session.connection().execute(revoke, {"key_prefix": prefix})
    return bool(done.rowcount)
