"""The worked example of docs/calibration.md: the live agreement with owners' labels (read
from the store on SQLite and PostgreSQL) equals `judge calibrate`'s figures on the same DICES
items and votes, to the last bit, and the page quotes those figures."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from judge.calibration.report import build_report
from judge.service.label_agreement import live_agreement
from judge.settings import Settings
from judge.store.db import transaction
from tests.calibration.owners_example import TRAIT, example, load_store

FIELDS = (
    "n_items",
    "n_judged",
    "judge",
    "ceiling",
    "alpha_humans",
    "alpha_humans_and_judge",
    "passes",
    "denoising",
    "points",
)
DOC = Path(__file__).resolve().parents[2] / "docs" / "calibration.md"


@pytest.fixture
def calibrated(dices_dir: Path) -> dict[str, object]:
    found = example(dices_dir)
    report = build_report(
        found.items,
        found.manifest,
        found.passes,
        traits=[TRAIT],
        n_passes=1,
        judge_model="embedded/smollm2-135m-instruct",
        judge_note=None,
        slice_text="the worked example",
    )
    return report.traits[0].model_dump(include=set(FIELDS))


def test_the_live_agreement_equals_judge_calibrate_on_the_same_items(
    engine: Engine, settings: Settings, dices_dir: Path, calibrated: dict[str, object]
) -> None:
    load_store(engine, example(dices_dir))

    with transaction(engine) as session:
        (live,) = live_agreement(session, settings=settings)

    assert live.agreement.model_dump(include=set(FIELDS)) == calibrated
    assert (live.trait, live.judge_model) == (TRAIT, "embedded/smollm2-135m-instruct")
    assert live.n_labels == 120 + 120 + 60 and live.n_labelled_twice == 120
