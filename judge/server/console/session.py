"""Console sign-in: the owner JWT in an HttpOnly, SameSite=Strict cookie, a CSRF token bound to
it (the sign-in form's to a nonce cookie), and a same-origin check on every form post
(docs/console.md, "Forms, CSRF and cross-site posts")."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime
from typing import Annotated
from urllib.parse import parse_qs, urlsplit

from fastapi import Depends, Request, Response

from judge.core.domain.limits import MAX_FORM_BYTES
from judge.core.errors import AuthError, InputError, JudgeError
from judge.engine.settings import Settings
from judge.server.auth import KEY_SCHEME, OwnerClaims, owner_actor, verify_owner_token
from judge.server.request_scope import app_settings

COOKIE = "judge_console"
PRE_COOKIE = "judge_console_signin"
COOKIE_PATH = "/console"
FORM_MAX_BYTES = MAX_FORM_BYTES


class ConsoleSignInRequired(AuthError):
    """No valid owner session on a console page (agent keys never have one)."""


class ConsoleForbidden(JudgeError):
    """A form post that failed the CSRF or same-origin check."""


def _mac(secret: str, purpose: str, value: str) -> str:
    return hmac.new(secret.encode(), f"{purpose}:{value}".encode(), hashlib.sha256).hexdigest()


def csrf_token(secret: str, session_token: str) -> str:
    """The CSRF token of a signed-in session (bound to its cookie)."""
    return _mac(secret, "console-csrf", hashlib.sha256(session_token.encode()).hexdigest())


def sign_in_token(secret: str, nonce: str) -> str:
    """The CSRF token of the sign-in form (bound to its nonce cookie)."""
    return _mac(secret, "console-sign-in", nonce)


def new_nonce() -> str:
    return secrets.token_urlsafe(32)


def tokens_match(expected: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(expected.encode(), given.encode())


def own_origin(request: Request) -> str:
    return f"{request.url.scheme}://{request.headers.get('host', request.url.netloc)}"


def same_origin(request: Request) -> bool:
    """Whether a post comes from a page of this service (Origin, else Referer)."""
    origin = request.headers.get("origin")
    if origin is not None:
        return origin == own_origin(request)
    referer = request.headers.get("referer")
    if referer is None:
        return False
    parts = urlsplit(referer)
    return f"{parts.scheme}://{parts.netloc}" == own_origin(request)


async def read_form(request: Request) -> dict[str, str]:
    """A urlencoded form body, bounded; the last value of each field wins."""
    if not same_origin(request):
        raise ConsoleForbidden("this form was posted from another site")
    body = await request.body()
    if len(body) > FORM_MAX_BYTES:
        raise InputError(f"the form is larger than {FORM_MAX_BYTES} bytes")
    fields = parse_qs(body.decode("utf-8", errors="replace"), keep_blank_values=True)
    return {name: values[-1] for name, values in fields.items()}


def session_owner(token: str | None, settings: Settings) -> OwnerClaims:
    """The owner behind a session cookie; agent keys and bad tokens raise ConsoleSignInRequired."""
    if not token or token.startswith(KEY_SCHEME):
        raise ConsoleSignInRequired("sign in with an owner token")
    try:
        return verify_owner_token(
            token, secret=settings.signing_secret, audience=settings.jwt_audience
        )
    except AuthError:
        raise ConsoleSignInRequired("sign in with an owner token") from None


class ConsoleSession:
    """A signed-in owner and the CSRF token its forms carry."""

    def __init__(self, claims: OwnerClaims, csrf: str) -> None:
        self.owner, self.claims, self.csrf = claims.owner, claims, csrf

    @property
    def by(self) -> str:
        return owner_actor(self.owner)


async def current_session(
    request: Request, settings: Annotated[Settings, Depends(app_settings)]
) -> ConsoleSession:
    """The console's owner session (401 page otherwise). A bearer agent key never opens a page."""
    scheme, _, credential = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and credential.strip().startswith(KEY_SCHEME):
        raise ConsoleSignInRequired("agent keys cannot open the console")
    token = request.cookies.get(COOKIE)
    claims = session_owner(token, settings)
    return ConsoleSession(claims, csrf_token(settings.signing_secret, token or ""))


def check_csrf(session: ConsoleSession, form: dict[str, str]) -> None:
    if not tokens_match(session.csrf, form.get("csrf")):
        raise ConsoleForbidden(
            "the form's CSRF token is missing or wrong; reload the page and try again"
        )


def set_session_cookie(
    response: Response, request: Request, token: str, claims: OwnerClaims
) -> None:
    """HttpOnly, SameSite=Strict, scoped to /console, Secure when served over https."""
    seconds = max(0, int((claims.expires_at - datetime.now(UTC)).total_seconds()))
    _set_cookie(response, request, COOKIE, token, seconds)


def set_nonce_cookie(response: Response, request: Request, nonce: str) -> None:
    _set_cookie(response, request, PRE_COOKIE, nonce, 1800)


def _set_cookie(response: Response, request: Request, name: str, value: str, age: int) -> None:
    secure = request.url.scheme == "https"
    response.set_cookie(
        name, value, max_age=age, path=COOKIE_PATH, httponly=True, samesite="strict", secure=secure
    )


SessionDep = Annotated[ConsoleSession, Depends(current_session)]
