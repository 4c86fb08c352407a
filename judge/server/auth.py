"""Credentials: agent keys (``sk_live_<prefix>_<secret>``, only the sha256 kept: a fast hash is
right for 256-bit random keys) and owner JWTs (HS256, PyJWT)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

import jwt
from pydantic import BaseModel, ConfigDict

from judge.core.domain.limits import text_problem
from judge.core.errors import AuthError, InputError
from judge.core.integrity import linear

KEY_SCHEME = "sk_live_"
_KEY_SHAPE = linear.compile(r"^sk_live_([A-Za-z0-9]{12})_([A-Za-z0-9_\-]{40,})$")
#: Ingest keys (``ik_live_<prefix>_<secret>``): one source's spans in, nothing else.
INGEST_SCHEME = "ik_live_"
_INGEST_SHAPE = linear.compile(r"^ik_live_([A-Za-z0-9]{12})_([A-Za-z0-9_\-]{40,})$")
_DURATION = linear.compile(r"(\d+)([smhd])")
ALGORITHM = "HS256"
ISSUER = "judge"
REQUIRED_CLAIMS = ["exp", "iat", "sub", "aud", "iss"]
#: One message for every refused credential, so a refusal reveals nothing about why.
INVALID_CREDENTIALS = "invalid or missing credentials"
#: The longest an owner token may live; a token claiming a later expiry is refused.
MAX_TOKEN_LIFETIME = timedelta(days=366)
#: An owner name is recorded as the author of changes, so it must fit the store.
MAX_OWNER_CHARS = 100


def owner_actor(name: str) -> str:
    """The audit name of an owner."""
    return f"owner:{name}"


def agent_actor(agent_id: str) -> str:
    """The audit name of an agent (whatever key it used)."""
    return f"agent:{agent_id}"


def system_actor(part: str) -> str:
    """The audit name of the service itself (``system:service``, ``system:scoring``)."""
    return f"system:{part}"


class NewAgentKey(NamedTuple):
    key: str
    prefix: str
    key_sha256: str


class AgentIdentity(BaseModel):
    """Who an agent key speaks for: one agent in one seat."""

    model_config = ConfigDict(frozen=True)

    agent_id: str
    seat: str
    prefix: str


class IngestIdentity(BaseModel):
    """Who an ingest key speaks for: one source of traces; it may only send spans."""

    model_config = ConfigDict(frozen=True)

    source: str
    prefix: str


class OwnerClaims(BaseModel):
    model_config = ConfigDict(frozen=True)

    owner: str
    expires_at: datetime


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_agent_key(scheme: str = KEY_SCHEME) -> NewAgentKey:
    """A fresh key (an agent key, or with ``INGEST_SCHEME`` an ingest key); the caller stores
    prefix and hash and shows the key once."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    prefix = "".join(secrets.choice(alphabet) for _ in range(12))
    key = f"{scheme}{prefix}_{secrets.token_urlsafe(32)}"
    return NewAgentKey(key, prefix, hash_key(key))


def key_prefix(key: str) -> str:
    """The public prefix of a well-formed key; AuthError for anything else."""
    return _prefix(key, _KEY_SHAPE)


def ingest_key_prefix(key: str) -> str:
    """The public prefix of a well-formed ingest key; AuthError for anything else."""
    return _prefix(key, _INGEST_SHAPE)


def _prefix(key: str, shape: linear.Pattern) -> str:
    if (match := shape.match(key)) is None:
        raise AuthError(INVALID_CREDENTIALS)
    return match.group(1)


def key_matches(key: str, stored_sha256: str) -> bool:
    return hmac.compare_digest(hash_key(key), stored_sha256)


def parse_ttl(text: str) -> timedelta:
    """'90s', '15m', '1h', '7d' -> a timedelta."""
    match = _DURATION.fullmatch(text.strip())
    if match is None or int(match.group(1)) == 0:
        raise InputError(f"--ttl: {text!r} is not a duration like 30m, 1h or 7d")
    unit = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[match.group(2)]
    try:
        return timedelta(**{unit: int(match.group(1))})
    except OverflowError:
        raise InputError(f"--ttl: {text!r} is longer than any token may live") from None


def create_owner_token(
    *, owner: str, secret: str, audience: str, ttl: timedelta, now: datetime | None = None
) -> str:
    """A signed owner token (HS256) with subject, audience, issuer, issued-at and expiry."""
    _check_token_request(owner, ttl)
    issued = now or datetime.now(UTC)
    claims = {
        "sub": owner,
        "aud": audience,
        "iss": ISSUER,
        "iat": issued,
        "exp": issued + ttl,
        "role": "owner",
    }
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def _check_token_request(owner: str, ttl: timedelta) -> None:
    if not owner.strip():
        raise InputError("--owner: an owner name is required")
    if ttl > MAX_TOKEN_LIFETIME:
        raise InputError(
            f"--ttl: at most {MAX_TOKEN_LIFETIME.days}d; tokens that live longer are refused"
        )
    if len(owner) > MAX_OWNER_CHARS or text_problem(owner):
        raise InputError(f"--owner: at most {MAX_OWNER_CHARS} characters of plain text")


def verify_owner_token(token: str, *, secret: str, audience: str) -> OwnerClaims:
    """Check signature, algorithm, expiry, audience, issuer and required claims (AuthError,
    one message). A verified token is remembered; its expiry is checked on every call."""
    claims = _verified_token(token, secret, audience)
    if claims.expires_at <= datetime.now(UTC):
        raise AuthError(INVALID_CREDENTIALS)
    return claims


#: Owner tokens verified recently (a few hundred bytes each): the owners' clients reuse theirs.
VERIFIED_TOKENS = 1024


@functools.lru_cache(maxsize=VERIFIED_TOKENS)
def _verified_token(token: str, secret: str, audience: str) -> OwnerClaims:
    """The claims of a token that verifies now (decoding costs a few hundred microseconds)."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            audience=audience,
            issuer=ISSUER,
            options={"require": REQUIRED_CLAIMS},
        )
    except jwt.PyJWTError:
        raise AuthError(INVALID_CREDENTIALS) from None
    if claims.get("role") != "owner" or not _plain_owner(claims.get("sub")):
        raise AuthError(INVALID_CREDENTIALS)
    return OwnerClaims(owner=claims["sub"], expires_at=_expiry(claims.get("exp")))


def _plain_owner(sub: object) -> bool:
    return isinstance(sub, str) and 0 < len(sub) <= MAX_OWNER_CHARS and text_problem(sub) is None


def _expiry(exp: object, now: datetime | None = None) -> datetime:
    """The expiry: an integer claim (PyJWT takes numeric strings) within the longest lifetime."""
    latest = (now or datetime.now(UTC)) + MAX_TOKEN_LIFETIME
    if not isinstance(exp, int) or isinstance(exp, bool) or exp > latest.timestamp():
        raise AuthError(INVALID_CREDENTIALS)
    return datetime.fromtimestamp(exp, UTC)
