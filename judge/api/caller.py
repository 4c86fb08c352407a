"""Routes either credential may call: an owner token or an agent key, told apart by shape.

Agent keys start with ``sk_live_``; anything else is read as an owner JWT. Both schemes are
declared, so OpenAPI lists them as alternatives.
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

from fastapi import Depends, Request

from judge.api.auth import Credentials, agent_for, agent_scheme, owner_for, owner_scheme
from judge.api.deps import EngineDep, SettingsDep
from judge.auth import INVALID_CREDENTIALS, KEY_SCHEME, AgentIdentity
from judge.errors import AuthError


class Caller(NamedTuple):
    """Who is calling: ``agent`` is None for an owner."""

    name: str
    agent: AgentIdentity | None


def current_caller(
    request: Request,
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
        agent = agent_for(request, token, engine)
        return Caller(f"agent:{agent.agent_id}", agent)
    claims = owner_for(request, token, settings)
    return Caller(f"owner:{claims.owner}", None)


CallerDep = Annotated[Caller, Depends(current_caller)]
