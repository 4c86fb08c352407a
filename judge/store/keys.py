"""Repository functions for agent keys (only hashes and public prefixes are stored)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col, select

from judge.store.tables import AgentKeyRow, utcnow


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


#: Built once, at import: every request with an agent key asks it (docs/deploy.md, "Read
#: performance").
_LIVE_KEY = select(AgentKeyRow).where(
    AgentKeyRow.prefix == sa.bindparam("prefix"), col(AgentKeyRow.revoked_at).is_(None)
)


def live_key_by_prefix(session: Session, *, prefix: str) -> AgentKeyRow | None:
    return session.exec(_LIVE_KEY, params={"prefix": prefix}).first()


def list_agent_keys(session: Session, *, agent_id: str | None = None) -> list[AgentKeyRow]:
    query = select(AgentKeyRow).order_by(col(AgentKeyRow.id))
    if agent_id is not None:
        query = query.where(AgentKeyRow.agent_id == agent_id)
    return list(session.exec(query).all())


def revoke_agent_key(session: Session, *, prefix: str) -> bool:
    row = live_key_by_prefix(session, prefix=prefix)
    if row is None:
        return False
    row.revoked_at = utcnow()
    session.add(row)
    return True
