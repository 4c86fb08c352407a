"""The one error hierarchy of the product: every error raised on purpose derives from
:class:`JudgeError`; the CLI prints its message and exits non-zero (docs/ci.md), the API maps
each branch to a status code. Subclasses elsewhere: the scenario and check errors
(judge.engine.checks.errors), CalibrationSetError (judge.engine.calibration) and
SeatMismatchError, an AuthError (judge.server.service).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol


class JudgeError(Exception):
    """Base of every error the product raises on purpose."""


class BudgetExceeded(JudgeError):
    """A judging budget stops a run (not scored, CLI exit 1); the message naming the limit is
    for owners, agents see only the reason ``budget`` (docs/service.md, "Cost and budgets").
    ``daily``: the limit is one of a UTC day, so the same request may pass tomorrow."""

    def __init__(self, message: str, *, daily: bool = False) -> None:
        super().__init__(message)
        self.daily = daily


class ScanBudgetExceeded(JudgeError):
    """The integrity scan of one run used up its CPU-time budget (``JUDGE_SCAN_CPU_S``): the
    run is held for owners as ``unscannable`` and never judged unscreened (docs/integrity.md)."""


class InputError(JudgeError):
    """The user's input is wrong (400 / 422, CLI exit 2); the message says what to change."""


class InputErrors(InputError):
    """Several inputs are wrong at once; ``problems`` keeps each one's error, in input order
    (the CLI prints one line per problem)."""

    def __init__(self, problems: list[InputError]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems

    @classmethod
    def raise_found(cls, problems: list[InputError]) -> None:
        """Raise one problem as itself, several together; return when there is none."""
        if len(problems) > 1:
            raise cls(problems)
        if problems:
            raise problems[0]


class RunFormatError(InputError):
    """A run does not match the run format (docs/run-format.md)."""


class RubricError(InputError):
    """A rubric or trait pack is malformed or refers to something unknown."""


class ConfigError(InputError):
    """A configuration value is missing, malformed or unsafe."""


class JudgeBackendError(JudgeError):
    """The judge model failed to produce a reply."""


class TransientJudgeError(JudgeBackendError):
    """A failure that may pass (rate limit, timeout, 5xx, lost connection); ``retry_after``:
    seconds the provider asked us to wait, when it said so."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentJudgeError(JudgeBackendError):
    """A failure that retrying cannot fix: bad credentials, unknown model, bad request;
    ``status``: the HTTP status the server answered, when one did."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class CheckError(JudgeError):
    """A state check could not be evaluated (refused statement, wrong shape, timeout)."""


class AuthError(JudgeError):
    """Credentials are missing, invalid, expired, or do not reach the resource (401 / 404)."""


class NotFoundError(JudgeError):
    """No resource under that identifier is visible to the caller (404)."""


class ConflictError(JudgeError):
    """A resource exists under that identifier with different content (409)."""


class ValidationProblems(Protocol):
    """What a pydantic or FastAPI validation error offers: its list of problems."""

    def errors(self) -> Sequence[Mapping[str, object]]: ...


def describe_validation_error(
    exc: ValidationProblems,
    limit: int = 8,
    *,
    top: str = "(top level)",
    hidden: Collection[object] = (),
    count_more: bool = True,
) -> str:
    """Render validation problems as 'field.path: problem', one per field, joined by '; ' (the
    CLI's messages and the API's 422 alike): at most ``limit`` fields, the rest counted when
    ``count_more``; ``top`` places a problem with the whole value; ``hidden`` path parts (union
    members, tags) are left out."""
    lines = _field_lines(exc, top, hidden)
    if len(lines) > limit:
        more = [f"... and {len(lines) - limit} more problem(s)"] if count_more else []
        lines = [*lines[:limit], *more]
    return "; ".join(lines)


def _field_lines(exc: ValidationProblems, top: str, hidden: Collection[object]) -> list[str]:
    problems: dict[str, list[str]] = {}
    for err in exc.errors():
        loc = err.get("loc", ())
        parts = [str(p) for p in (loc if isinstance(loc, Sequence) else ()) if p not in hidden]
        message = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        problems.setdefault(".".join(parts) or top, []).append(message)
    return [f"{where}: {_join_alternatives(messages)}" for where, messages in problems.items()]


def _join_alternatives(messages: list[str]) -> str:
    if len(messages) == 1 or not all(m.startswith("Input should be ") for m in messages):
        return "; ".join(dict.fromkeys(messages))
    return "Input should be " + " or ".join(m.removeprefix("Input should be ") for m in messages)
