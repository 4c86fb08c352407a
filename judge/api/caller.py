"""Routes either credential may call: an owner token or an agent key, told apart by shape.

Agent keys start with ``sk_live_``; anything else is read as an owner JWT. Both schemes are
declared, so OpenAPI lists them as alternatives.
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

from fastapi import Depends

from judge.api.auth import Credentials, agent_of_key, agent_scheme, owner_scheme
from judge.api.deps import EngineDep, SettingsDep
from judge.auth import INVALID_CREDENTIALS, KEY_SCHEME, AgentIdentity, verify_owner_token
from judge.errors import AuthError


class Caller(NamedTuple):
    """Who is calling: ``agent`` is None for an owner."""

    name: str
    agent: AgentIdentity | None


def current_caller(
    owner_credentials: Annotated[Credentials, Depends(owner_scheme)],
    agent_credentials: Annotated[Credentials, Depends(agent_scheme)],
    engine: EngineDep,
    settings: SettingsDep,
) -> Caller:
    """The owner or agent behind the bearer credential (401 otherwise, one fixed body)."""
    credentials = owner_credentials or agent_credentials
    if credentials is None:
        raise AuthError(INVALID_CREDENTIALS)
    token = credentials.credentials
    if token.startswith(KEY_SCHEME):
        agent = agent_of_key(engine, token)
        return Caller(f"agent:{agent.agent_id}", agent)
    claims = verify_owner_token(token, secret=settings.signing_secret, audience=settings.jwt_audience)
    return Caller(f"owner:{claims.owner}", None)


CallerDep = Annotated[Caller, Depends(current_caller)]
