"""The error tree mapped to HTTP status codes; every error body is ``{"detail": message}``.

    InputError (RunFormatError, RubricError, ConfigError)  422
    request body/path that fails validation                 422 (fields named)
    AuthError                                               401 (one fixed message)
    SeatMismatchError (an agent's run without its seat)     403
    NotFoundError                                           404
    ConflictError                                           409
    JudgeBackendError                                       502
    the store locked, full, read-only or unreachable        503 (Retry-After; the process stays up)
    any other JudgeError                                    500

Error texts never carry internals (SQL, parameters, exception text): a store failure answers
one fixed sentence and the detail goes to the log.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from judge.auth import INVALID_CREDENTIALS
from judge.errors import (
    AuthError,
    ConflictError,
    InputError,
    JudgeBackendError,
    JudgeError,
    NotFoundError,
    describe_validation_error,
)
from judge.service.intake import SeatMismatchError
from judge.store.db import is_transient

log = logging.getLogger("judge.api")
STORE_UNAVAILABLE = "the store is busy or not writable at the moment; nothing was changed: try again shortly"
STORE_RETRY_AFTER_S = "5"


class ErrorPublic(BaseModel):
    detail: str


STATUS: list[tuple[type[JudgeError], int]] = [
    (SeatMismatchError, 403),
    (AuthError, 401),
    (NotFoundError, 404),
    (ConflictError, 409),
    (InputError, 422),
    (JudgeBackendError, 502),
]


def status_for(exc: JudgeError) -> int:
    return next((code for kind, code in STATUS if isinstance(exc, kind)), 500)


async def judge_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, JudgeError)  # registered for JudgeError only
    code = status_for(exc)
    if code == 401:
        return JSONResponse({"detail": INVALID_CREDENTIALS}, 401, headers={"WWW-Authenticate": "Bearer"})
    return JSONResponse({"detail": str(exc)}, code)


def describe_request_errors(exc: RequestValidationError) -> str:
    """'body.transcript.0.kind: problem; ...' (the same shape as the CLI's messages)."""
    return describe_validation_error(exc, top="(request)", count_more=False)


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": describe_request_errors(exc)}, 422)


async def store_error(request: Request, exc: Exception) -> JSONResponse:
    """A store outage is 503 with a fixed body; anything else from the store is a bug (500)."""
    transient = is_transient(exc) or isinstance(exc, sa.exc.TimeoutError)
    log.error("store error on %s %s: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
    if transient:
        return JSONResponse({"detail": STORE_UNAVAILABLE}, 503, headers={"Retry-After": STORE_RETRY_AFTER_S})
    return JSONResponse({"detail": "internal error; the service log has the details"}, 500)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(JudgeError, judge_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(sa.exc.SQLAlchemyError, store_error)


#: OpenAPI descriptions of the error answers, for the routes' ``responses=``.
def error_responses(*codes: int) -> dict[int | str, dict[str, object]]:
    text = {
        401: "Missing, malformed, forged, expired or wrong-audience credentials (one fixed body).",
        403: "The agent key's agent does not sit in its seat in this run.",
        404: "No such resource visible to the caller (hidden and missing look the same).",
        409: "A different body was already stored under this id.",
        503: "The store is locked, full or read-only for now; nothing was changed (Retry-After).",
        422: "The request does not validate; the message names the field.",
    }
    return {code: {"model": ErrorPublic, "description": text[code]} for code in codes}
