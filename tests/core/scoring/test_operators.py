"""The six comparisons, NULL, and the detail line each answer carries."""

from __future__ import annotations

import pytest

from judge.core.domain.checks import Op, Scalar
from judge.core.scoring.operators import compare


@pytest.mark.parametrize(
    ("answered", "op", "wanted", "status", "detail"),
    [
        (507500, "eq", 507500, "passed", "answered 507500, expected 507500"),
        (507499, "eq", 507500, "failed", "answered 507499, expected 507500"),
        (3, "ne", 4, "passed", "answered 3, expected anything but 4"),
        (4, "ne", 4, "failed", "answered 4, expected anything but 4"),
        (2, "gt", 1, "passed", "answered 2, expected more than 1"),
        (1, "gt", 1, "failed", "answered 1, expected more than 1"),
        (1, "ge", 1, "passed", "answered 1, expected at least 1"),
        (0, "ge", 1, "failed", "answered 0, expected at least 1"),
        (0.5, "lt", 1, "passed", "answered 0.5, expected less than 1"),
        (1, "lt", 1, "failed", "answered 1, expected less than 1"),
        (3200, "le", 3200, "passed", "answered 3200, expected at most 3200"),
        (3201, "le", 3200, "failed", "answered 3201, expected at most 3200"),
        ("paid", "eq", "paid", "passed", "answered 'paid', expected 'paid'"),
        ("b", "gt", "a", "passed", "answered 'b', expected more than 'a'"),
        (1, "eq", True, "passed", "answered 1, expected true"),
        (2.0, "eq", 2, "passed", "answered 2, expected 2"),
    ],
)
def test_each_comparison_decides_and_explains(
    answered: Scalar, op: Op, wanted: Scalar, status: str, detail: str
) -> None:
    result = compare(answered, op, wanted)
    assert (result.status, result.answered, result.detail) == (status, answered, detail)


def test_null_equals_only_null() -> None:
    assert compare(None, "eq", None).status == "passed"
    assert compare(0, "eq", None).status == "failed"
    assert compare(None, "eq", 0).detail == "answered NULL, expected 0"
    assert compare(None, "ne", None).status == "failed"
    assert compare(5, "ne", None).status == "passed"


@pytest.mark.parametrize("op", ["gt", "ge", "lt", "le"])
def test_ordering_against_null_fails_as_in_sql(op: Op) -> None:
    assert compare(None, op, 1).status == "failed"


def test_text_against_a_number_is_a_broken_check_not_a_miss() -> None:
    result = compare("507500", "eq", 507500)
    assert result.status == "error"
    assert result.detail == "answered '507500', expected 507500: cannot compare text with a number"
