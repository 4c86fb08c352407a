"""The output base refuses what it does not declare, in both directions."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from judge.core.domain.outputs import Output
from judge.core.domain.scorecard import JudgeParseRate


class Figure(Output):
    value: float


def test_an_undeclared_field_is_refused() -> None:
    with pytest.raises(ValidationError, match="extra_forbidden"):
        Figure.model_validate({"value": 1.0, "note": "stray"})


def test_the_written_models_stand_on_it() -> None:
    rate = JudgeParseRate(passes=4, unparseable=1, unparseable_rate=0.25, structured_passes=4)

    assert isinstance(rate, Output)
    with pytest.raises(ValidationError, match="extra_forbidden"):
        JudgeParseRate.model_validate({**rate.model_dump(), "hidden": 1})
