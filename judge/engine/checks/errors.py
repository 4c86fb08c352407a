"""The state-check branches of the product's error tree (see :mod:`judge.core.errors`)::

    InputError
    ├── ScenarioFormatError     a scenario file that does not validate
    └── ScenarioMismatchError   a run checked against another scenario's checks
    CheckError
    ├── CheckRefusedError       not one read-only query, or the database refused it
    ├── CheckTimeoutError       the query ran past its time limit and was aborted
    ├── CheckShapeError         zero rows, several rows or several columns
    ├── CheckValueError         an answer no check can compare (a blob, an array)
    └── StateUnavailableError   the database named by the run cannot be opened

Check errors never escape :func:`judge.engine.checks.evaluate_run`: they become a check result with
status ``error`` and their message as its detail.
"""

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
