"""The error tree mapped to HTTP status codes (``STATUS``); every error body is
``{"code", "detail"}`` (docs/service.md, "Errors"). Error texts never carry internals: a store
failure answers one fixed sentence and the detail goes to the log."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from judge.core.errors import (
    AuthError,
    BudgetExceeded,
    ConflictError,
    InputError,
    JudgeBackendError,
    JudgeError,
    NotFoundError,
    ScanBudgetExceeded,
    describe_validation_error,
)
from judge.server.auth import INVALID_CREDENTIALS
from judge.server.service.intake import SeatMismatchError
from judge.server.store.db import is_transient

log = logging.getLogger("judge.server.api")
STORE_UNAVAILABLE = (
    "the store is busy or not writable at the moment; nothing was changed: try again shortly"
)
STORE_RETRY_AFTER_S = "5"


CODES: dict[int, str] = {
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    500: "internal_error",
    502: "judge_unavailable",
    503: "store_unavailable",
}
#: The code of a refusal by a judging budget (429 on a daily limit, 422 on a request's own):
#: never ``rate_limited``, which clients retry (docs/service.md, "Budgets").
BUDGET_EXCEEDED = "budget_exceeded"


class ErrorPublic(BaseModel):
    """Every error answer of the API."""

    code: str = Field(
        description="stable and machine-readable: "
        + ", ".join(sorted({*CODES.values(), BUDGET_EXCEEDED}))
    )
    detail: str = Field(description="what went wrong and how to fix it, for people")


def error_body(status: int, detail: str) -> dict[str, str]:
    """The JSON error body for ``status``."""
    return {"code": CODES.get(status, "internal_error"), "detail": detail}


def error_response(
    status: int, detail: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(status, detail), status, headers=headers)


STATUS: list[tuple[type[JudgeError], int]] = [
    (SeatMismatchError, 403),
    (AuthError, 401),
    (NotFoundError, 404),
    (ConflictError, 409),
    (ScanBudgetExceeded, 409),  # a comparison over a run held as unscannable
    (InputError, 422),
    (JudgeBackendError, 502),
    (BudgetExceeded, 422),  # a daily limit answers 429 (budget_refused)
]


def status_for(exc: JudgeError) -> int:
    return next((code for kind, code in STATUS if isinstance(exc, kind)), 500)


def seconds_to_utc_midnight(now: datetime | None = None) -> int:
    """Whole seconds until the next UTC day, when the daily limits count from zero again."""
    now = now or datetime.now(UTC)
    midnight = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return max(1, math.ceil((midnight - now).total_seconds()))


def budget_refused(exc: BudgetExceeded) -> JSONResponse:
    """429 with Retry-After (the next UTC day) for a daily limit; 422 for a limit on the
    request itself, which waiting never lifts: make it smaller or raise the limit."""
    body = {"code": BUDGET_EXCEEDED, "detail": str(exc)}
    if exc.daily:
        return JSONResponse(body, 429, headers={"Retry-After": str(seconds_to_utc_midnight())})
    return JSONResponse(body, 422)


async def judge_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, JudgeError)  # registered for JudgeError only
    if isinstance(exc, BudgetExceeded):
        return budget_refused(exc)
    code = status_for(exc)
    if code == 401:
        return error_response(401, INVALID_CREDENTIALS, headers={"WWW-Authenticate": "Bearer"})
    return error_response(code, str(exc))


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(422, describe_validation_error(exc, top="(request)", count_more=False))


async def store_error(request: Request, exc: Exception) -> JSONResponse:
    """A store outage is 503 with a fixed body; anything else from the store is a bug (500)."""
    transient = is_transient(exc) or isinstance(exc, sa.exc.TimeoutError)
    log.error(
        "store error on %s %s: %s: %s", request.method, request.url.path, type(exc).__name__, exc
    )
    if transient:
        return error_response(503, STORE_UNAVAILABLE, headers={"Retry-After": STORE_RETRY_AFTER_S})
    return error_response(500, "internal error; the service log has the details")


async def http_error(_request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own answers (no such route, method not allowed) in the API's error body."""
    assert isinstance(exc, StarletteHTTPException)
    return error_response(exc.status_code, str(exc.detail), headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(JudgeError, judge_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(sa.exc.SQLAlchemyError, store_error)


def error_responses(*codes: int) -> dict[int | str, dict[str, object]]:
    """OpenAPI descriptions of the error answers, for the routes' ``responses=``."""
    text = {
        401: "Missing, malformed, forged, expired or wrong-audience credentials (one fixed body).",
        403: "The agent key's agent does not sit in its seat in this run.",
        404: "No such resource visible to the caller (hidden and missing look the same).",
        409: "A different body was already stored under this id.",
        503: "The store is locked, full or read-only for now; nothing was changed (Retry-After).",
        422: "The request does not validate; the message names the field.",
        502: "The judge could not be reached after retries.",
    }
    return {code: {"model": ErrorPublic, "description": text[code]} for code in codes}
