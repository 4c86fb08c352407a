"""Agent keys: issue one (shown once, stored hashed) and authenticate a presented key."""

from __future__ import annotations

import threading
from typing import NamedTuple

from pydantic import TypeAdapter, ValidationError
from sqlmodel import Session

from judge.core.domain.run import Identifier
from judge.core.errors import AuthError, InputError
from judge.server.auth import (
    INVALID_CREDENTIALS,
    AgentIdentity,
    hash_key,
    key_matches,
    key_prefix,
    new_agent_key,
)
from judge.server.store import keys as key_repo

_IDENTIFIER: TypeAdapter[str] = TypeAdapter(Identifier)


def identifier(name: str, value: str) -> str:
    """``value`` if it is an identifier; InputError starting with ``name`` otherwise."""
    try:
        return _IDENTIFIER.validate_python(value)
    except ValidationError:
        raise InputError(
            f"{name}: {value!r} is not a valid identifier (letters, digits, _ . : -)"
        ) from None


def issue_key(session: Session, *, agent_id: str, seat: str, label: str | None = None) -> str:
    """Create a key for ``agent_id`` in ``seat``; returns the key (the only time it exists in clear)."""
    new = new_agent_key()
    key_repo.insert_agent_key(
        session,
        prefix=new.prefix,
        key_sha256=new.key_sha256,
        agent_id=identifier("--agent", agent_id),
        seat=identifier("--seat", seat),
        label=label,
    )
    session.flush()
    return new.key


def authenticate_agent(session: Session, *, key: str) -> AgentIdentity:
    """The identity behind a presented key; AuthError (one fixed message) otherwise."""
    row = key_repo.live_key_by_prefix(session, prefix=key_prefix(key))
    if row is None or not key_matches(key, row.key_sha256):
        raise AuthError(INVALID_CREDENTIALS)
    identity = AgentIdentity(agent_id=row.agent_id, seat=row.seat, prefix=row.prefix)
    with _SEEN_LOCK:
        _SEEN[row.key_sha256] = identity
        if len(_SEEN) > SEEN_KEYS:
            del _SEEN[next(iter(_SEEN))]
    return identity


#: How many keys :func:`seen_agent` remembers (about 300 bytes each), the oldest forgotten first.
SEEN_KEYS = 1024
_SEEN: dict[str, AgentIdentity] = {}
_SEEN_LOCK = threading.Lock()


class SeenKey(NamedTuple):
    """A presented key that passed :func:`authenticate_agent` lately: who it was issued to."""

    agent: AgentIdentity
    key_sha256: str


def seen_agent(key: str) -> SeenKey | None:
    """Who ``key`` was issued to, if it passed :func:`authenticate_agent` lately (nothing is read):
    a hint, kept by the key's hash, which a read checks again as the key may since be revoked."""
    key_sha256 = hash_key(key)
    with _SEEN_LOCK:
        agent = _SEEN.get(key_sha256)
    return None if agent is None else SeenKey(agent, key_sha256)
