"""Bearer authentication: owner JWTs and agent keys, documented as two OpenAPI schemes.

Every refusal (no header, wrong scheme, forged, expired, wrong audience, unknown or revoked
key) is the same 401 body, so a caller learns nothing about why.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.api.db import get_engine
from judge.auth import INVALID_CREDENTIALS, AgentIdentity, OwnerClaims, verify_owner_token
from judge.errors import AuthError
from judge.service.keys import authenticate_agent
from judge.settings import Settings, get_settings

owner_scheme = HTTPBearer(
    scheme_name="OwnerToken",
    bearerFormat="JWT",
    description="Owner JWT (HS256) from `judge token create --owner NAME`: sees every run and seat.",
    auto_error=False,
)
agent_scheme = HTTPBearer(
    scheme_name="AgentKey",
    bearerFormat="sk_live_…",
    description="Agent key from `judge keys create --agent A --seat S`: sees only its own seat's runs.",
    auto_error=False,
)
Credentials = HTTPAuthorizationCredentials | None


#: Where the request guard leaves the credential it verified, so the route does not verify it again.
VERIFIED = "verified_credential"


def remember_verified(scope: MutableMapping[str, Any], token: str, identity: AgentIdentity | OwnerClaims) -> None:
    """Record on the ASGI scope (Starlette's ``request.state``) who ``token`` was verified to be."""
    scope.setdefault("state", {})[VERIFIED] = (token, identity)


def _verified(request: Request, token: str) -> AgentIdentity | OwnerClaims | None:
    seen = getattr(request.state, VERIFIED, None)
    return seen[1] if seen is not None and seen[0] == token else None


def owner_for(request: Request, token: str, settings: Settings) -> OwnerClaims:
    """The owner behind a valid token, reusing the guard's verification of this very token."""
    seen = _verified(request, token)
    if isinstance(seen, OwnerClaims):
        return seen
    return verify_owner_token(token, secret=settings.signing_secret, audience=settings.jwt_audience)


def agent_for(request: Request, token: str, engine: Engine) -> AgentIdentity:
    """The agent behind a live key, reusing the guard's lookup of this very key."""
    seen = _verified(request, token)
    if isinstance(seen, AgentIdentity):
        return seen
    return agent_of_key(engine, token)


def current_owner(
    request: Request,
    credentials: Annotated[Credentials, Depends(owner_scheme)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> OwnerClaims:
    """The owner behind a valid token (401 otherwise)."""
    if credentials is None:
        raise AuthError(INVALID_CREDENTIALS)
    return owner_for(request, credentials.credentials, settings)


def agent_of_key(engine: Engine, key: str) -> AgentIdentity:
    """Look the key up in a short session of its own, closed before the route runs: the
    request then holds at most one connection at a time (never the auth one and another)."""
    with Session(engine) as session:
        return authenticate_agent(session, key=key)


def current_agent(
    request: Request,
    credentials: Annotated[Credentials, Depends(agent_scheme)],
    engine: Annotated[Engine, Depends(get_engine)],
) -> AgentIdentity:
    """The agent and seat behind a valid, unrevoked key (401 otherwise)."""
    if credentials is None:
        raise AuthError(INVALID_CREDENTIALS)
    return agent_for(request, credentials.credentials, engine)
