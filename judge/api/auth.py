"""Bearer authentication: owner JWTs and agent keys, documented as two OpenAPI schemes.

Every refusal (no header, wrong scheme, forged, expired, wrong audience, unknown or revoked
key) is the same 401 body, so a caller learns nothing about why.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
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


def current_owner(
    credentials: Annotated[Credentials, Depends(owner_scheme)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> OwnerClaims:
    """The owner behind a valid token (401 otherwise)."""
    if credentials is None:
        raise AuthError(INVALID_CREDENTIALS)
    return verify_owner_token(credentials.credentials, secret=settings.signing_secret, audience=settings.jwt_audience)


def agent_of_key(engine: Engine, key: str) -> AgentIdentity:
    """Look the key up in a short session of its own, closed before the route runs: the
    request then holds at most one connection at a time (never the auth one and another)."""
    with Session(engine) as session:
        return authenticate_agent(session, key=key)


def current_agent(
    credentials: Annotated[Credentials, Depends(agent_scheme)],
    engine: Annotated[Engine, Depends(get_engine)],
) -> AgentIdentity:
    """The agent and seat behind a valid, unrevoked key (401 otherwise)."""
    if credentials is None:
        raise AuthError(INVALID_CREDENTIALS)
    return agent_of_key(engine, credentials.credentials)
