"""Agent keys: issue one (shown once, stored hashed) and authenticate a presented key."""

from __future__ import annotations

from pydantic import TypeAdapter, ValidationError
from sqlmodel import Session

from judge.auth import INVALID_CREDENTIALS, AgentIdentity, key_matches, key_prefix, new_agent_key
from judge.domain.run import Identifier
from judge.errors import AuthError, InputError
from judge.store import keys as key_repo

_IDENTIFIER: TypeAdapter[str] = TypeAdapter(Identifier)


def _identifier(field: str, value: str) -> str:
    try:
        return _IDENTIFIER.validate_python(value)
    except ValidationError:
        raise InputError(
            f"--{field}: {value!r} is not a valid identifier (letters, digits, _ . : -)"
        ) from None


def issue_key(session: Session, *, agent_id: str, seat: str, label: str | None = None) -> str:
    """Create a key for ``agent_id`` in ``seat``; returns the key (the only time it exists in clear)."""
    new = new_agent_key()
    key_repo.insert_agent_key(
        session,
        prefix=new.prefix,
        key_sha256=new.key_sha256,
        agent_id=_identifier("agent", agent_id),
        seat=_identifier("seat", seat),
        label=label,
    )
    session.flush()
    return new.key


def authenticate_agent(session: Session, *, key: str) -> AgentIdentity:
    """The identity behind a presented key; AuthError (one fixed message) otherwise."""
    row = key_repo.live_key_by_prefix(session, prefix=key_prefix(key))
    if row is None or not key_matches(key, row.key_sha256):
        raise AuthError(INVALID_CREDENTIALS)
    return AgentIdentity(agent_id=row.agent_id, seat=row.seat, prefix=row.prefix)
