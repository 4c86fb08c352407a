"""Comparing what the world answered with what a check wants (eq, ne, gt, ge, lt, le)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple, get_args

from judge.core.domain.checks import CheckStatus, Op, Scalar

#: Each op is the :mod:`operator` function of the same name.
_OPERATORS: dict[Op, Callable[[Any, Any], bool]] = {
    op: getattr(operator, op) for op in get_args(Op)
}

_EXPECTED: dict[Op, str] = {
    "eq": "expected {}",
    "ne": "expected anything but {}",
    "gt": "expected more than {}",
    "ge": "expected at least {}",
    "lt": "expected less than {}",
    "le": "expected at most {}",
}


class ValueComparison(NamedTuple):
    status: CheckStatus
    answered: Scalar
    detail: str


def render(value: Scalar) -> str:
    """Show a value the way a person reads it in a detail line."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def expectation(op: Op, wanted: Scalar) -> str:
    """What a check wants, in words: "expected at least 1"."""
    return _EXPECTED[op].format(render(wanted))


def compare(answered: Scalar, op: Op, wanted: Scalar) -> ValueComparison:
    """Compare an answer with the wanted value, the detail saying both. NULL equals only NULL
    and an ordering with NULL on either side fails, as in SQL; text against a number is an
    ``error``: the check is broken, the agent did not miss."""
    detail = f"answered {render(answered)}, {expectation(op, wanted)}"
    if answered is None or wanted is None:
        passed = (answered is wanted) == (op == "eq") if op in ("eq", "ne") else False
        return ValueComparison("passed" if passed else "failed", answered, detail)
    if isinstance(answered, str) != isinstance(wanted, str):
        return ValueComparison("error", answered, f"{detail}: cannot compare text with a number")
    passed = bool(_OPERATORS[op](answered, wanted))
    return ValueComparison("passed" if passed else "failed", answered, detail)
