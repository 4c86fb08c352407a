"""An owner's label is one of the rubric's anchors (docs/calibration.md, "Owners label")."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from judge.core.domain.labels import AnchorScore, LabelCreate


@pytest.mark.parametrize("score", [0.0, 0.5, 1.0])
def test_each_anchor_is_a_label(score: float) -> None:
    assert LabelCreate(seat="buyer", trait="honesty", score=score).score == score


def test_a_score_between_anchors_is_refused_with_the_rule() -> None:
    with pytest.raises(
        ValidationError, match="a label is one of the rubric's anchors: 0, 0.5 or 1"
    ):
        LabelCreate(seat="buyer", trait="honesty", score=0.7)


def test_the_anchor_rule_stands_on_its_own_for_other_forms() -> None:
    with pytest.raises(ValidationError, match="rubric's anchors"):
        TypeAdapter(AnchorScore).validate_python(0.25)
