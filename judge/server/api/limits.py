"""The request guard: an ASGI middleware that bounds every request before a route sees it.

The order of its checks and what each refusal counts are in docs/security.md ("Request
limits", "Floods, cursors and foreign files").
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from typing import NamedTuple, TypeVar
from urllib.parse import parse_qsl

import anyio
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.core.domain.limits import (
    ID_PATTERN,
    MAX_FORM_BYTES,
    RESERVED_WORDS,
    BodyError,
    RequestLimits,
    check_json,
    check_run_counts,
    parse_json,
    query_value_problem,
)
from judge.core.errors import AuthError, ConfigError
from judge.core.integrity import linear
from judge.engine.settings import Settings
from judge.server.api.caller import (
    agent_of_key,
    bearer_of,
    ingest_token,
    remember_verified,
    source_of_key,
)
from judge.server.api.errors import error_body
from judge.server.auth import INVALID_CREDENTIALS, KEY_SCHEME, key_prefix, verify_owner_token
from judge.server.request_scope import in_store_thread
from judge.server.service.ratelimit import SharedWindow, SlidingWindow
from judge.server.store.db import is_postgres_url

Window = SlidingWindow | SharedWindow
T = TypeVar("T")

RUN_ROUTES = frozenset({"/api/agent/runs", "/api/evals/runs"})
#: OTLP/HTTP traces in: an ingest key only, bodies bounded by the ingest settings and read by
#: the route itself (docs/integrations.md, "Live traces").
INGEST_ROUTE = "/v1/traces"
AGENT_SUBMIT_ROUTE = "/api/agent/runs"
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Answers that keep an agent key's submission slot: the run was queued, or its body was bad.
KEEPS_SLOT = frozenset({202, 413, 422})
#: Answers that count as a refused credential from a client with no verified one.
ANONYMOUS_FLOOD = frozenset({413, 422})
#: The console's session cookie (``judge.server.console.session.COOKIE``).
CONSOLE_COOKIE = "judge_console"
#: Bodies up to this size are checked on the event loop; larger ones on a worker thread.
INLINE_CHECK_BYTES = 64 * 1024
_SEGMENT = linear.compile(ID_PATTERN)


class Refusal(NamedTuple):
    status: int
    detail: str
    retry_after: float | None = None


#: What a body-carrying request without any credential gets (the API's one 401 body).
ANONYMOUS = Refusal(401, INVALID_CREDENTIALS)


class Admission(NamedTuple):
    """What the guard decided before the body; ``slot`` is given back after the answer."""

    refusal: Refusal | None
    verified: bool = False
    slot: str | None = None


class Read(NamedTuple):
    """A request's body as read (None: past its limit) and why it is refused, if it is."""

    body: bytes | None
    refusal: Refusal | None


class RateLimits(NamedTuple):
    submissions: Window
    failed_auth: Window


def rate_limits(
    settings: Settings, *, engine: Callable[[], Engine | None] | None = None
) -> RateLimits:
    """The windows of one app: shared in PostgreSQL when it is the store, else in-process."""
    shared = engine is not None and is_postgres_url(settings.database_url)

    def window(bucket: str, limit: int) -> Window:
        if shared:
            assert engine is not None
            return SharedWindow(
                bucket=bucket, limit=limit, window_s=settings.rate_window_s, engine=engine
            )
        return SlidingWindow(limit=limit, window_s=settings.rate_window_s)

    return RateLimits(
        submissions=window("submissions", settings.max_submissions_per_key),
        failed_auth=window("failed_auth", settings.max_failed_auth_per_client),
    )


async def ask(call: Callable[[str], T], key: str) -> T:
    """``call(key)`` for a window's method; a shared window's on a store thread, not the loop."""
    if getattr(getattr(call, "__self__", None), "shared", False):
        return await in_store_thread(call, key)
    return call(key)


def path_problem(path: str) -> str | None:
    """Why a request path cannot name anything (a segment that is no identifier), or None."""
    for segment in path.split("/"):
        if segment and (segment in (".", "..") or not _SEGMENT.fullmatch(segment)):
            shown = segment if len(segment) <= 40 else segment[:40] + "..."
            return f"path: segment {shown!r} is not an identifier (1-200 letters, digits, '.', '_', ':' or '-')"
    return None


def query_problem(query_string: bytes) -> str | None:
    """Why a query string cannot be used (bad UTF-8, a control character, too long), or None."""
    try:
        pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError):
        return "query: not UTF-8 text"
    for name, value in pairs:
        name_problem = query_value_problem(name)
        problem = name_problem or query_value_problem(value)
        if problem:
            return f"{'query' if name_problem else f'query.{name}'}: {problem}"
    return None


def route_words(paths: list[str]) -> set[str]:
    """The literal words of route paths (``/api/evals/{run_id}/metrics`` -> api, evals, metrics)."""
    return {part for path in paths for part in path.split("/") if part and not part.startswith("{")}


def require_reserved(paths: list[str]) -> None:
    """ConfigError when a mounted route word could also be a run id (it would shadow it)."""
    missing = route_words(paths) - RESERVED_WORDS
    if missing:
        raise ConfigError(
            f"route words {sorted(missing)} must be added to judge.core.domain.limits.RESERVED_WORDS"
        )


def json_content(headers: dict[bytes, bytes]) -> bool:
    """True when the route would parse the body as JSON (no content type counts, as in FastAPI)."""
    kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    return not kind or kind == b"application/json" or kind.endswith(b"+json")


def bearer_token(headers: dict[bytes, bytes]) -> str:
    """The token of a ``Bearer`` Authorization header ("" when there is none)."""
    return bearer_of(headers.get(b"authorization", b"").decode("latin-1"))


def agent_key_label(headers: dict[bytes, bytes]) -> str | None:
    """The public prefix of a well-formed agent key in the Authorization header, or None."""
    token = bearer_token(headers)
    if not token.startswith(KEY_SCHEME):
        return None
    try:
        return key_prefix(token)
    except AuthError:
        return None


def check_body(body: bytes, limits: RequestLimits, run_route: bool) -> None:
    """Parse and bound a JSON body (BodyError naming the field); a run's own list limits first."""
    value = parse_json(body, limits)
    if run_route:
        check_run_counts(value, limits)
    check_json(value, limits)


class RequestGuard:
    """The ASGI middleware; see the module docstring for what it refuses and when."""

    def __init__(
        self, app: ASGIApp, *, limits: RequestLimits, rates: RateLimits, settings: Settings
    ) -> None:
        self.app, self.limits, self.rates, self.settings = app, limits, rates, settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        admission = await self._admit(scope, headers)
        refusal, body = admission.refusal, None
        if refusal is None:
            refusal = self._declared_too_large(scope, headers)
        if refusal is None and scope["method"] in BODY_METHODS:
            body, refusal = await self._read(scope, headers, receive)
        status = 500

        async def counted(message: Message) -> None:
            """A refusal is counted before its client can read it and ask again."""
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                await self._count_refusal(status, scope, headers, admission)
            await send(message)

        if refusal is not None:
            await respond(counted, refusal)
        else:
            await self.app(scope, receive if body is None else replay(body, receive), counted)
        if admission.slot is not None and status not in KEEPS_SLOT:
            await ask(self.rates.submissions.release, admission.slot)

    async def _admit(self, scope: Scope, headers: dict[bytes, bytes]) -> Admission:
        """Path and query, the address's window, the credential, an agent key's slot."""
        refusal = await self._before_body(scope, headers)
        if refusal is not None or scope["method"] not in BODY_METHODS:
            return Admission(refusal)
        if not _bearer_route(scope["path"]):
            return Admission(None, verified=self._console_session(headers))
        refusal = await self._credential(scope, headers)
        if refusal is not None:
            return Admission(refusal)
        submitting = scope["method"] == "POST" and scope["path"] == AGENT_SUBMIT_ROUTE
        slot = agent_key_label(headers) if submitting else None
        if slot is not None:
            wait = await ask(self.rates.submissions.acquire, slot)
            refusal = _too_many(wait, "runs submitted with this key")
        return Admission(refusal, verified=True, slot=slot if refusal is None else None)

    async def _read(self, scope: Scope, headers: dict[bytes, bytes], receive: Receive) -> Read:
        """The body, read up to its limit; an API route's JSON body is also checked."""
        body = await read_body(receive, self._limit(scope)[0])
        if body is None:
            return Read(None, self._too_large(scope))
        if not _bearer_route(scope["path"]) or scope["path"] == INGEST_ROUTE:
            return Read(body, None)  # a console form or OTLP data: their routes read them
        return Read(body, await self._check(body, scope, headers))

    async def _before_body(self, scope: Scope, headers: dict[bytes, bytes]) -> Refusal | None:
        problem = path_problem(scope["path"]) or query_problem(scope.get("query_string", b""))
        if problem:
            return Refusal(422, problem)
        wait = await ask(self.rates.failed_auth.retry_after, _client(scope))
        if wait:
            return _too_many(wait, "refused credentials from this address")
        if (
            scope["method"] in BODY_METHODS
            and _bearer_route(scope["path"])
            and b"authorization" not in headers
            and not (scope["path"] == INGEST_ROUTE and ingest_token(_text(headers)) is not None)
        ):
            return ANONYMOUS
        return None

    def _declared_too_large(self, scope: Scope, headers: dict[bytes, bytes]) -> Refusal | None:
        try:
            length = int(headers.get(b"content-length", b""))
        except ValueError:  # none, or not a number: the body is bounded as it is read
            return None
        return self._too_large(scope) if length > self._limit(scope)[0] else None

    def _limit(self, scope: Scope) -> tuple[int, str]:
        """The route's body limit and where it is set (a console form is small)."""
        if scope["path"] == INGEST_ROUTE:
            return self.settings.ingest_max_body_bytes, "JUDGE_INGEST_MAX_BODY_BYTES"
        if _bearer_route(scope["path"]):
            return self.limits.max_body_bytes, "JUDGE_MAX_BODY_BYTES"
        return MAX_FORM_BYTES, "a console form"

    def _too_large(self, scope: Scope) -> Refusal:
        limit, source = self._limit(scope)
        return Refusal(413, f"body: larger than the limit of {limit} bytes ({source})")

    def _console_session(self, headers: dict[bytes, bytes]) -> bool:
        """Whether the request carries a console session cookie holding a valid owner token."""
        jar = SimpleCookie()
        try:
            jar.load(headers.get(b"cookie", b"").decode("latin-1"))
        except CookieError:
            return False
        morsel = jar.get(CONSOLE_COOKIE)
        if morsel is None or not morsel.value or morsel.value.startswith(KEY_SCHEME):
            return False
        try:
            verify_owner_token(
                morsel.value,
                secret=self.settings.signing_secret,
                audience=self.settings.jwt_audience,
            )
        except AuthError:
            return False
        return True

    async def _verified(self, scope: Scope, headers: dict[bytes, bytes]) -> bool:
        """Whether the request carries a credential that verifies (asked only of refusals)."""
        if not _bearer_route(scope["path"]):
            return self._console_session(headers)
        return await self._credential(scope, headers) is None

    async def _credential(self, scope: Scope, headers: dict[bytes, bytes]) -> Refusal | None:
        """The fixed 401 for a credential that does not verify (its body is never read): the
        ingest route takes a live ingest key only (agent keys and owner tokens are refused there,
        as an ingest key is everywhere else). What verified is left on the request; a store
        fault is left for the route to answer."""
        ingest = scope["path"] == INGEST_ROUTE
        token = ingest_token(_text(headers)) if ingest else bearer_token(headers)
        if not token:
            return ANONYMOUS
        try:
            await self._verify(scope, token, ingest=ingest)
        except AuthError:
            return ANONYMOUS
        except SQLAlchemyError:  # the route meets the same fault and answers it (503)
            return None
        return None

    async def _verify(self, scope: Scope, token: str, *, ingest: bool) -> None:
        """Verify ``token`` (AuthError otherwise) and leave who it is on the request; without a
        store the route looks a key up itself."""
        if not ingest and not token.startswith(KEY_SCHEME):
            secret, audience = self.settings.signing_secret, self.settings.jwt_audience
            claims = verify_owner_token(token, secret=secret, audience=audience)
            remember_verified(scope, token, claims)
            return
        engine = _engine(scope)
        if engine is not None:
            lookup = source_of_key if ingest else agent_of_key
            remember_verified(scope, token, await in_store_thread(lookup, engine, token))

    async def _check(
        self, body: bytes, scope: Scope, headers: dict[bytes, bytes]
    ) -> Refusal | None:
        if not body or not json_content(headers):
            return None
        run_route = scope["method"] == "POST" and scope["path"] in RUN_ROUTES
        try:
            if len(body) <= INLINE_CHECK_BYTES:
                check_body(body, self.limits, run_route)
            else:
                await anyio.to_thread.run_sync(check_body, body, self.limits, run_route)
        except BodyError as exc:
            return Refusal(422, str(exc))
        return None

    async def _count_refusal(
        self, status: int, scope: Scope, headers: dict[bytes, bytes], admission: Admission
    ) -> None:
        refused = status in ANONYMOUS_FLOOD or (
            scope["method"] in BODY_METHODS and 400 <= status < 500 and status != 429
        )
        anonymous_flood = (
            refused and not admission.verified and not await self._verified(scope, headers)
        )
        if status == 401 or anonymous_flood:
            await ask(self.rates.failed_auth.record, _client(scope))


def _text(headers: dict[bytes, bytes]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in headers.items()}


def _bearer_route(path: str) -> bool:
    """API routes take bearer credentials; the console signs in by form and cookie instead."""
    return not (path == "/console" or path.startswith("/console/"))


def _engine(scope: Scope) -> Engine | None:
    return getattr(scope["app"].state, "engine", None) if "app" in scope else None


def _client(scope: Scope) -> str:
    return str((scope.get("client") or ("unknown", 0))[0])


def _too_many(wait: float, what: str) -> Refusal | None:
    if not wait:
        return None
    return Refusal(429, f"too many {what}; retry after {math.ceil(wait)} s", wait)


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as more than ``limit`` bytes arrived."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the already-read body to the app, then defers to the client."""
    pending = [body]

    async def again() -> Message:
        if pending:
            return {"type": "http.request", "body": pending.pop(), "more_body": False}
        return await receive()

    return again


async def respond(send: Send, refusal: Refusal) -> None:
    """Answer with the API's JSON error body (and Retry-After on 429)."""
    payload = json.dumps(error_body(refusal.status, refusal.detail)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    if refusal.status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    if refusal.retry_after is not None:
        headers.append((b"retry-after", str(math.ceil(refusal.retry_after)).encode()))
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
