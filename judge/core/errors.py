"""The one error hierarchy of the product.

Every error the library raises on purpose derives from :class:`JudgeError`; the CLI
prints its message and exits non-zero, the API maps each branch to a status code::

    JudgeError
    ├── InputError                  bad input from a user: 400 / 422, CLI exit 2
    │   ├── InputErrors             several inputs bad at once (every bad run file), one message each
    │   ├── RunFormatError          a run file that does not match the run format
    │   ├── RubricError             a rubric or trait pack that does not validate
    │   ├── ConfigError             a setting or platform_config value that is not allowed
    │   ├── ScenarioFormatError     a scenario file that does not validate (judge.engine.checks.errors)
    │   ├── ScenarioMismatchError   a run checked against another scenario (judge.engine.checks.errors)
    │   └── CalibrationSetError     a malformed calibration set or manifest (judge.engine.calibration)
    ├── JudgeBackendError           the judge model could not be reached or answered badly
    │   ├── TransientJudgeError     worth retrying (429, timeout, 5xx, lost connection)
    │   └── PermanentJudgeError     retrying will not help (bad key, unknown model, 4xx)
    ├── CheckError                  a state check that could not be evaluated (judge.engine.checks.errors:
    │                               refused statement, timeout, wrong shape, bad value, no state)
    ├── AuthError                   missing, forged, expired or out-of-scope credentials: 401 / 404
    │   └── SeatMismatchError       an agent key submitting a run it does not sit in (judge.server.service)
    ├── BudgetExceeded              a judging budget would be or was crossed: the run is not
    │                               scored (reason ``budget``), CLI exit 1
    ├── NotFoundError               nothing under that id visible to the caller: 404
    └── ConflictError               a different body under an id that exists: 409
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol


class JudgeError(Exception):
    """Base of every error the product raises on purpose."""


class BudgetExceeded(JudgeError):
    """A judging budget stops a run: its estimate would exceed a limit (nothing was judged), or
    its passes reached one (the passes made are kept). The message names the limit; it is for
    owners, agents see only the reason ``budget`` (docs/service.md, "Cost and budgets")."""


class InputError(JudgeError):
    """The user's input is wrong; the message says what to change."""


class InputErrors(InputError):
    """Several inputs are wrong at once; each keeps its own message (the CLI prints one line
    per problem, so every bad file is named in one go).

    Attributes:
        problems: the error of each bad input, in input order.
    """

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
    """A failure that may pass: rate limit, timeout, server error, lost connection.

    Attributes:
        retry_after: seconds the provider asked us to wait, when it said so.
    """

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentJudgeError(JudgeBackendError):
    """A failure that retrying cannot fix: bad credentials, unknown model, bad request."""


class CheckError(JudgeError):
    """A state check could not be evaluated (refused statement, wrong shape, timeout)."""


class AuthError(JudgeError):
    """Credentials are missing, invalid, expired, or do not reach the resource."""


class NotFoundError(JudgeError):
    """No resource under that identifier is visible to the caller."""


class ConflictError(JudgeError):
    """A resource exists under that identifier with different content."""


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
    """Render validation problems as 'field.path: problem', one entry per field, joined by '; ':
    the one rendering of validation errors, for the CLI's messages and the API's 422 alike.

    Args:
        exc: the validation error.
        limit: how many fields are named; the rest are counted ("... and 2 more problem(s)").
        top: how a problem with the whole value is placed.
        hidden: path parts left out of the path (union members, tags of a tagged union).
        count_more: whether to add the count of the fields not named.
    """
    lines = _field_lines(exc, top, hidden)
    return "; ".join(_at_most(lines, limit, count_more))


def _field_lines(exc: ValidationProblems, top: str, hidden: Collection[object]) -> list[str]:
    problems: dict[str, list[str]] = {}
    for err in exc.errors():
        loc = err.get("loc", ())
        parts = [str(p) for p in (loc if isinstance(loc, Sequence) else ()) if p not in hidden]
        message = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        problems.setdefault(".".join(parts) or top, []).append(message)
    return [f"{where}: {_join_alternatives(messages)}" for where, messages in problems.items()]


def _at_most(lines: list[str], limit: int, count_more: bool) -> list[str]:
    if len(lines) <= limit:
        return lines
    more = [f"... and {len(lines) - limit} more problem(s)"] if count_more else []
    return [*lines[:limit], *more]


def _join_alternatives(messages: list[str]) -> str:
    if len(messages) == 1 or not all(m.startswith("Input should be ") for m in messages):
        return "; ".join(dict.fromkeys(messages))
    return "Input should be " + " or ".join(m.removeprefix("Input should be ") for m in messages)
