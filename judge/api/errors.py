"""The error tree mapped to HTTP status codes; every error body is ``{"detail": message}``.

    InputError (RunFormatError, RubricError, ConfigError)  422
    request body/path that fails validation                 422 (fields named)
    AuthError                                               401 (one fixed message)
    SeatMismatchError (an agent's run without its seat)     403
    NotFoundError                                           404
    ConflictError                                           409
    JudgeBackendError                                       502
    any other JudgeError                                    500
"""

from __future__ import annotations

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
)
from judge.service.intake import SeatMismatchError


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
    parts = []
    for err in exc.errors()[:8]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "(request)"
        parts.append(f"{where}: {str(err.get('msg', 'invalid')).removeprefix('Value error, ')}")
    return "; ".join(parts)


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": describe_request_errors(exc)}, 422)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(JudgeError, judge_error)
    app.add_exception_handler(RequestValidationError, validation_error)


#: OpenAPI descriptions of the error answers, for the routes' ``responses=``.
def error_responses(*codes: int) -> dict[int | str, dict[str, object]]:
    text = {
        401: "Missing, malformed, forged, expired or wrong-audience credentials (one fixed body).",
        403: "The agent key's agent does not sit in its seat in this run.",
        404: "No such resource visible to the caller (hidden and missing look the same).",
        409: "A different body was already stored under this id.",
        422: "The request does not validate; the message names the field.",
    }
    return {code: {"model": ErrorPublic, "description": text[code]} for code in codes}
