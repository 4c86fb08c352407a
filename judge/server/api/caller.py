"""Who is calling: bearer credentials (owner JWTs, ``sk_live_`` agent keys) read into one
``Caller``. What the request guard verified is reused: a credential is looked up once a request.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, MutableMapping
from typing import Annotated, Any, Literal, NamedTuple, TypeVar, get_type_hints

import anyio
from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.errors import AuthError
from judge.engine.settings import Settings
from judge.server.auth import (
    INGEST_SCHEME,
    INVALID_CREDENTIALS,
    KEY_SCHEME,
    AgentIdentity,
    IngestIdentity,
    OwnerClaims,
    agent_actor,
    owner_actor,
    verify_owner_token,
)
from judge.server.request_scope import EngineDep, SettingsDep, app_settings
from judge.server.service.ingest import authenticate_ingest
from judge.server.service.keys import authenticate_agent
from judge.server.store.db import autocommit_read

Audience = Literal["owner", "agent"]
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])
V = TypeVar("V", AgentIdentity, OwnerClaims, IngestIdentity)

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
ingest_scheme = HTTPBearer(
    scheme_name="IngestKey",
    bearerFormat="ik_live_…",
    description="Ingest key from `judge ingest-keys create --source S` (or `POST /api/ingest/keys`): "
    "sends spans to `/v1/traces` and nothing else; also taken in the `x-judge-ingest-key` header.",
    auto_error=False,
)
#: The header an ingest key may come in instead of ``Authorization`` (OTEL_EXPORTER_OTLP_HEADERS).
INGEST_HEADER = "x-judge-ingest-key"
Credentials = HTTPAuthorizationCredentials | None
OwnerCredentials = Annotated[Credentials, Depends(owner_scheme)]
AgentCredentials = Annotated[Credentials, Depends(agent_scheme)]

VERIFIED = "verified_credential"


class Caller(NamedTuple):
    """Who is calling: ``agent`` is None for an owner."""

    name: str
    agent: AgentIdentity | None

    @property
    def actor(self) -> str:
        """The one string audit rows record for this caller."""
        return (
            agent_actor(self.agent.agent_id) if self.agent is not None else owner_actor(self.name)
        )

    def as_agent(self) -> AgentIdentity:
        """The agent behind an agent key (401 for an owner, who has no seat)."""
        if self.agent is None:
            raise AuthError(INVALID_CREDENTIALS)
        return self.agent

    @property
    def audience(self) -> Audience:
        return "owner" if self.agent is None else "agent"

    @classmethod
    def of_owner(cls, claims: OwnerClaims) -> Caller:
        return cls(claims.owner, None)

    @classmethod
    def of_agent(cls, agent: AgentIdentity) -> Caller:
        return cls(agent.agent_id, agent)


Verified = AgentIdentity | OwnerClaims | IngestIdentity


def remember_verified(scope: MutableMapping[str, Any], token: str, identity: Verified) -> None:
    """Record on the ASGI scope (``request.state``) who ``token`` was verified to be."""
    scope.setdefault("state", {})[VERIFIED] = (token, identity)


def _verified(request: Request, token: str, kind: type[V]) -> V | None:
    """What the request guard verified ``token`` to be, when that is a ``kind``."""
    seen = getattr(request.state, VERIFIED, None)
    found = seen[1] if seen is not None and seen[0] == token else None
    return found if isinstance(found, kind) else None


def agent_of_key(engine: Engine, key: str) -> AgentIdentity:
    """Look the key up in a short read of its own: a request holds one connection at a time."""
    return autocommit_read(engine, lambda session: authenticate_agent(session, key=key))


def bearer_of(authorization: str) -> str:
    """The token of an Authorization header's text when its scheme is ``Bearer`` (in any case,
    one space after it), stripped; "" otherwise."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def ingest_token(headers: Any) -> str | None:
    """The ingest key a request presents (``x-judge-ingest-key``, else a bearer ``ik_live_``
    credential), or None."""
    given = headers.get(INGEST_HEADER)
    if given is None:
        given = bearer_of(str(headers.get("authorization", "")))
    given = given.strip()
    return given if given.startswith(INGEST_SCHEME) else None


def source_of_key(engine: Engine, key: str) -> IngestIdentity:
    """Look an ingest key up in a short read of its own (AuthError when it is not live)."""
    return autocommit_read(engine, lambda session: authenticate_ingest(session, key=key))


async def ingest_identity(request: Request, engine: Engine) -> IngestIdentity | None:
    """The source behind the request's ingest key (as the guard verified it), or None."""
    token = ingest_token(request.headers)
    if token is None:
        return None
    seen = _verified(request, token, IngestIdentity)
    if seen is not None:
        return seen
    try:
        return await anyio.to_thread.run_sync(source_of_key, engine, token)
    except AuthError:
        return None


def owner_for(request: Request, token: str, settings: Settings) -> OwnerClaims:
    """The owner behind a valid token, reusing the guard's verification of this very token."""
    return _verified(request, token, OwnerClaims) or verify_owner_token(
        token, secret=settings.signing_secret, audience=settings.jwt_audience
    )


def agent_for(request: Request, token: str, engine: Engine) -> AgentIdentity:
    """The agent behind a live key, reusing the guard's lookup of this very key."""
    return _verified(request, token, AgentIdentity) or agent_of_key(engine, token)


def _token(credentials: Credentials) -> str:
    if credentials is None:
        raise AuthError(INVALID_CREDENTIALS)
    return credentials.credentials


async def current_owner(
    request: Request, credentials: OwnerCredentials, settings: SettingsDep
) -> Caller:
    """The owner behind a valid token (401 otherwise); on the loop, as it reads nothing."""
    return Caller.of_owner(owner_for(request, _token(credentials), settings))


def current_agent(request: Request, credentials: AgentCredentials, engine: EngineDep) -> Caller:
    """The agent and seat behind a valid, unrevoked key (401 otherwise)."""
    return Caller.of_agent(agent_for(request, _token(credentials), engine))


class AgentKey(NamedTuple):
    """A presented agent key, looked up inside the route's own unit of work."""

    request: Request
    token: str

    def identity(self, session: Session) -> AgentIdentity:
        """The agent and seat behind the key, as :func:`current_agent` finds them (401 otherwise)."""
        seen = _verified(self.request, self.token, AgentIdentity)
        return seen or authenticate_agent(session, key=self.token)


async def current_caller(
    request: Request,
    owner_credentials: OwnerCredentials,
    agent_credentials: AgentCredentials,
    engine: EngineDep,
    settings: SettingsDep,
) -> Caller:
    """The owner or agent behind the bearer credential, told apart by its shape (401 otherwise)."""
    token = _token(owner_credentials or agent_credentials)
    if token.startswith(KEY_SCHEME):
        return Caller.of_agent(await anyio.to_thread.run_sync(agent_for, request, token, engine))
    return Caller.of_owner(owner_for(request, token, settings))


async def owner_of(request: Request) -> Caller:
    """:func:`current_owner` for a route that declares no dependencies (docs/deploy.md, "Read
    performance"); such a route publishes its credential itself (:func:`published_credential`)."""
    return await current_owner(request, await owner_scheme(request), await app_settings(request))


async def agent_key_of(request: Request) -> AgentKey:
    """The request's agent key, not yet looked up (401 when there is none); see :func:`owner_of`."""
    return AgentKey(request, _token(await agent_scheme(request)))


class Admission(NamedTuple):
    """A dependency-free route's caller: an owner, or an agent key not yet looked up."""

    owner: Caller | None
    key: AgentKey | None

    def agent(self, session: Session) -> AgentIdentity | None:
        """The agent behind the key (401 when none is live), or None for an owner."""
        return None if self.key is None else self.key.identity(session)


async def admit(request: Request, audience: Audience) -> Admission:
    """Admit ``audience``'s credential as its dependency would."""
    if audience == "owner":
        return Admission(await owner_of(request), None)
    return Admission(None, await agent_key_of(request))


def published_credential(audience: Audience) -> dict[str, Any]:
    """The ``openapi_extra`` publishing a dependency-free route's credential, as FastAPI would."""
    scheme = owner_scheme if audience == "owner" else agent_scheme
    return {"security": [{scheme.scheme_name: []}]}


ADMITS = {"owner": current_owner, "agent": current_agent}

OwnerDep = Annotated[Caller, Depends(current_owner)]
AgentDep = Annotated[Caller, Depends(current_agent)]
CallerDep = Annotated[Caller, Depends(current_caller)]


def admitting(endpoint: Endpoint, audience: Audience) -> Endpoint:
    """``endpoint`` with its ``caller: Caller`` admitted by ``audience``'s credential (or, for a
    coroutine taking ``admission: Admission``, by :func:`admit`, declaring no dependency)."""
    hints = get_type_hints(endpoint, include_extras=True)
    parameters = [
        p.replace(annotation=hints.get(p.name, p.annotation))
        for p in inspect.signature(endpoint).parameters.values()
    ]
    if any(p.name == ADMISSION for p in parameters):
        return _admitting_itself(endpoint, audience, [p for p in parameters if p.name != ADMISSION])
    admitted = Annotated[Caller, Depends(ADMITS[audience])]
    parameters = [p.replace(annotation=admitted) if p.name == "caller" else p for p in parameters]
    return _mounted(_forwarding(endpoint), endpoint, parameters, audience)


ADMISSION = "admission"


def _admitting_itself(
    endpoint: Endpoint, audience: Audience, parameters: list[inspect.Parameter]
) -> Endpoint:
    """``endpoint`` with its ``admission`` parameter filled by :func:`admit` from the request."""
    takes_request = any(p.name == "request" for p in parameters)
    if not takes_request:
        parameters.append(
            inspect.Parameter("request", inspect.Parameter.KEYWORD_ONLY, annotation=Request)
        )

    async def call(**kwargs: Any) -> Any:
        request = kwargs["request"] if takes_request else kwargs.pop("request")
        return await endpoint(**kwargs, admission=await admit(request, audience))

    return _mounted(call, endpoint, parameters, audience)


def _mounted(
    call: Callable[..., Any],
    endpoint: Endpoint,
    parameters: list[inspect.Parameter],
    audience: Audience,
) -> Endpoint:
    """``call`` published as ``endpoint`` for ``audience``: its name, docs and ``parameters``."""
    signature = inspect.signature(endpoint)
    returns = get_type_hints(endpoint, include_extras=True).get(
        "return", signature.return_annotation
    )
    wrapper = functools.update_wrapper(call, endpoint)
    wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=parameters, return_annotation=returns
    )
    wrapper.__name__ = f"{endpoint.__name__}_{audience}"
    return wrapper  # type: ignore[return-value]


def _forwarding(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A function of the same kind (coroutine or not) that calls ``endpoint``."""
    if inspect.iscoroutinefunction(endpoint):

        async def call_async(**kwargs: Any) -> Any:
            return await endpoint(**kwargs)

        return call_async

    def call(**kwargs: Any) -> Any:
        return endpoint(**kwargs)

    return call


class Mount(NamedTuple):
    """Where and how one audience sees an operation."""

    path: str
    summary: str
    description: str
    responses: dict[int | str, dict[str, Any]] | None = None


def mount_both(
    router: APIRouter,
    endpoint: Callable[..., Any],
    *,
    method: str,
    owner: Mount,
    agent: Mount,
    **shared: Any,
) -> None:
    """Mount one handler at the owner path (owner token) and at the agent path (agent key)."""
    common, extra = shared.pop("responses", {}), shared.pop("openapi_extra", None)
    itself = ADMISSION in inspect.signature(endpoint).parameters
    mounts: tuple[tuple[Audience, Mount], ...] = (("owner", owner), ("agent", agent))
    for audience, mount in mounts:
        router.add_api_route(
            mount.path,
            admitting(endpoint, audience),
            methods=[method],
            summary=mount.summary,
            description=mount.description,
            responses={**common, **(mount.responses or {})},
            openapi_extra=(extra or {}) | published_credential(audience) if itself else extra,
            **shared,
        )
