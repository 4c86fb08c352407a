"""The state-check branches of the error tree (:mod:`judge.core.errors`). Check errors never
escape :func:`judge.engine.checks.evaluate_run`: they become a result with status ``error``."""

from __future__ import annotations

from judge.core.errors import CheckError, InputError


class ScenarioFormatError(InputError):
    """A scenario file is malformed; the message names the field."""


class ScenarioMismatchError(InputError):
    """The run belongs to a different scenario than the checks it was given."""


class CheckRefusedError(CheckError):
    """The statement is not one read-only query, or the database refused to run it."""


class CheckTimeoutError(CheckError):
    """The query did not finish within its time limit and was aborted."""


class CheckShapeError(CheckError):
    """The query did not return exactly one row of exactly one column."""


class CheckValueError(CheckError):
    """The database answered a value no check can compare (a blob, an array, a record)."""


class StateUnavailableError(CheckError):
    """The database the run names cannot be opened or reached."""
