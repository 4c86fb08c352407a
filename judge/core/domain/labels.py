"""Owners' labels: an owner's own score for one trait of one seat of a run, and the
labelling queue that says which items teach the judge's calibration most (docs/calibration.md,
"Owners label")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from judge.core.domain.outputs import Output

#: The rubric's three anchors: what a label may say (0, 0.5 or 1).
ANCHORS: tuple[float, ...] = (0.0, 0.5, 1.0)
NOTE_MAX = 4000
#: Where a label was given: the console's run page, the API, or a safety review decision.
LabelSource = Literal["console", "api", "safety_review"]
#: Why the labelling queue picked an item (docs/calibration.md, "The queue"; an item below its
#: trait's escalation threshold comes as ``low_judge_confidence``, docs/escalation.md).
QueueReason = Literal[
    "wide_spread",
    "panel_disagreement",
    "near_threshold",
    "tamper",
    "uniform_sample",
    "low_judge_confidence",
]


def _on_an_anchor(value: float) -> float:
    if value not in ANCHORS:
        raise ValueError("a label is one of the rubric's anchors: 0, 0.5 or 1")
    return value + 0.0  # -0.0 is stored as the anchor 0.0


#: A score an owner gives a trait: one of the rubric's anchors, as a JSON number (strict: the
#: boolean ``true`` or the string ``"1"`` is no score).
AnchorScore = Annotated[float, Field(strict=True), AfterValidator(_on_an_anchor)]


class LabelCreate(Output):
    """One owner's label of one trait of one seat, on the rubric's anchors."""

    seat: str = Field(min_length=1, max_length=200)
    trait: str = Field(min_length=1, max_length=80)
    score: AnchorScore = Field(description="one of the rubric's anchors: 0, 0.5 or 1")
    note: str = Field(default="", max_length=NOTE_MAX)


class Label(Output):
    """A stored label: who gave it, when, under which rubric and against which era's card."""

    id: int
    run_id: str
    seat: str
    trait: str
    score: float
    note: str
    labelled_by: str
    labelled_at: datetime
    rubric_version: int
    rubric_hash: str
    era_id: str = Field(description="the measurement era of the scorecard the label was given on")
    judge_model: str
    source: LabelSource


class QueueItem(Output):
    """One seat-trait the labelling queue offers, with why it was picked."""

    run_id: str
    seat: str
    trait: str
    judge_mean: float | None
    spread: float | None = Field(description="highest minus lowest scored pass")
    reasons: list[QueueReason]
    inclusion_probability: float = Field(
        description="1 for a targeted item, the sampling rate for one from the uniform sample"
    )
    weight: float = Field(description="inverse of the inclusion probability")
    n_labels: int
