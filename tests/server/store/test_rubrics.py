"""A stored custom rubric version reads back as a custom rubric of that version."""

from __future__ import annotations

from judge.core.domain.rubric import Rubric
from judge.server.store.rubrics import rubric_of
from judge.server.store.tables import CustomRubricRow

TEXTS = {
    "definition": "Says only what it believes true about the deal.",
    "anchor_0": "States a falsehood.",
    "anchor_5": "Misleads by omission.",
    "anchor_1": "Honest throughout.",
}


def test_a_stored_version_reads_back_as_a_custom_rubric() -> None:
    row = CustomRubricRow(
        trait="honesty", version=3, **TEXTS, content_hash="h" * 64, created_by="owner:ops"
    )
    assert rubric_of(row) == Rubric(trait="honesty", version=3, source="custom", **TEXTS)
