"""A small calibration set for the escalation tests, written to a folder as a real one is
read: haggle runs whose buyer two people rated on a five-point scale (``runs/`` and
``labels.jsonl`` for the ``labels`` importer, a manifest YAML) and a scripted judge's pass
store beside it, in which the judge is sure and right, or unsure and wrong (or, for a blind
judge, either way at every confidence)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import yaml

from judge.core.domain.judging import JudgePass
from judge.engine.calibration.items import CalibrationItem, HumanLabel, write_items
from judge.engine.calibration.manifest import CalibrationManifest
from judge.engine.calibration.runner import PassRecord
from tests.helpers import example

TRAIT = "negotiation"
SEAT = "buyer"
LABEL = "rating"
SCALE = {"bad": 0.0, "poor": 0.25, "fair": 0.5, "good": 0.75, "great": 1.0}
RAW = {score: raw for raw, score in SCALE.items()}

#: (pass scores, the two people's ratings) by kind of seat; confidence is 1 - pass spread.
#: Sure (1 or 0.9) and right on the five points, or unsure (0) and wrong.
TRACKING = [
    ([0.75, 0.75, 0.75], [0.75, 0.75]),
    ([0.25, 0.25, 0.25], [0.0, 0.5]),
    ([0.5, 0.6, 0.5], [0.5, 0.5]),
    ([0.0, 0.5, 1.0], [1.0, 1.0]),
]
#: Sure or unsure, right or wrong, independently: half right at every confidence.
BLIND = [
    ([0.75, 0.75, 0.75], [0.25, 0.25]),
    ([0.25, 0.25, 0.25], [0.25, 0.25]),
    ([0.0, 0.5, 1.0], [0.5, 0.5]),
    ([0.0, 0.5, 1.0], [1.0, 1.0]),
]


def manifest() -> CalibrationManifest:
    return CalibrationManifest.model_validate(
        {
            "name": "haggle-ratings",
            "title": "Haggles rated by two people",
            "description": "The buyer's bargaining, rated on five points by two people.",
            "importer": "labels",
            "source": {"repository": "tests/haggle", "commit": "0" * 40, "paths": ["runs"]},
            "licence": {"name": "test data"},
            "citation": "Written by the escalation tests.",
            "local_folder": "haggle-ratings",
            "raters": [
                {"name": "people", "raters_per_item": 2, "description": "two people per seat"}
            ],
            "labels": [
                {
                    "name": LABEL,
                    "question": "How well did the buyer bargain?",
                    "rated_by": ["people"],
                    "scale": {"level": "ordinal", "values": SCALE},
                    "traits": [TRAIT],
                }
            ],
        }
    )


def item(item_id: str, people: list[float]) -> CalibrationItem:
    run = example("haggle.json").model_copy(update={"run_id": item_id})
    labels = [
        HumanLabel(seat=SEAT, label=LABEL, group="people", rater=f"p{n}", raw=RAW[s], score=s)
        for n, s in enumerate(people)
    ]
    return CalibrationItem(item_id=item_id, run=run, labels=labels)


def judge_pass(index: int, score: float, model: str, expected: float | None = None) -> JudgePass:
    return JudgePass(
        trait=TRAIT,
        index=index,
        score=score,
        sampled_score=score,
        expected_score=expected,
        model=model,
        parse_status="ok",
    )


class WrittenSet(NamedTuple):
    manifest: Path
    data: Path
    passes: Path


def write_set(folder: Path, kinds: list[tuple[list[float], list[float]]], n: int) -> WrittenSet:
    """``n`` labelled items cycling through ``kinds``, and one more labelled item the judge
    never scored; the judge is ``scripted-judge``."""
    items, lines = [], []
    for k in range(n):
        scores, people = kinds[k % len(kinds)]
        items.append(item(f"hag-{k:03d}", people))
        for index, score in enumerate(scores):
            record = PassRecord(
                item_id=f"hag-{k:03d}",
                seat=SEAT,
                judge_model="scripted-judge",
                judge_pass=judge_pass(index, score, "scripted-judge"),
            )
            lines.append(record.model_dump_json(by_alias=True))
    items.append(item("hag-unjudged", [0.5, 0.5]))
    write_items(items, folder / "data")
    (folder / "passes.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = folder / "haggle-ratings.yaml"
    path.write_text(yaml.safe_dump(manifest().model_dump(mode="json")), encoding="utf-8")
    return WrittenSet(path, folder / "data", folder / "passes.jsonl")
