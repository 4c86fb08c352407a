"""A rubric's era identity with and without an adopted calibration map (docs/alignment.md)."""

from __future__ import annotations

import hashlib
import json

from judge.core.domain.rubric import CalibrationMap, MapPoint, Rubric

TEXTS = {
    "trait": "negotiation",
    "version": 1,
    "definition": "How well the seat negotiates for its own side.",
    "anchor_0": "gives everything away",
    "anchor_5": "an even split, no more",
    "anchor_1": "wins the deal it wanted",
}
SQUEEZE = CalibrationMap(points=[MapPoint(judge=0.2, owners=0.0), MapPoint(judge=0.6, owners=1.0)])


def test_a_rubric_without_a_map_keeps_the_hash_of_its_texts() -> None:
    body = {k: v for k, v in TEXTS.items() if k != "version"}
    texts = json.dumps(body, sort_keys=True, separators=(",", ":"))

    assert Rubric(**TEXTS).content_hash == hashlib.sha256(texts.encode()).hexdigest()


def test_a_map_and_each_of_its_knots_join_the_hash() -> None:
    plain = Rubric(**TEXTS)
    mapped = Rubric(**TEXTS, calibration_map=SQUEEZE)
    moved = SQUEEZE.model_copy(
        update={"points": [SQUEEZE.points[0], MapPoint(judge=0.6, owners=0.9)]}
    )

    assert len({plain.content_hash, mapped.content_hash}) == 2
    assert Rubric(**TEXTS, calibration_map=moved).content_hash != mapped.content_hash
    assert Rubric(**TEXTS, calibration_map=SQUEEZE).content_hash == mapped.content_hash


def test_the_map_is_linear_between_knots_flat_beyond_and_keeps_none() -> None:
    assert [SQUEEZE.mapped(x) for x in (0.0, 0.2, 0.4, 0.5, 0.6, 1.0)] == [
        0.0,
        0.0,
        0.5,
        0.75,
        1.0,
        1.0,
    ]
    assert SQUEEZE.mapped(None) is None
