"""Several bad inputs are reported together, one alone as itself."""

from __future__ import annotations

import pytest

from judge.core.errors import InputError, InputErrors, RunFormatError


def test_no_problem_raises_nothing() -> None:
    InputErrors.raise_found([])


def test_one_problem_is_raised_as_itself() -> None:
    problem = RunFormatError("a.json: turns: field required")

    with pytest.raises(RunFormatError) as raised:
        InputErrors.raise_found([problem])

    assert raised.value is problem


def test_several_problems_are_raised_together_each_with_its_message() -> None:
    problems = [InputError("a.json: not JSON"), RunFormatError("b.json: seats: empty")]

    with pytest.raises(InputErrors) as raised:
        InputErrors.raise_found(problems)

    assert raised.value.problems == problems
    assert str(raised.value) == "a.json: not JSON\nb.json: seats: empty"
