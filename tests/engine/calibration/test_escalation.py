"""Escalation items from a calibration set: the human panel's mean on the label's own scale, the
judge's mean and confidence from a pass store, and the store path's rules reaching a target
for a judge whose confidence tracks its accuracy and refusing one for a blind judge."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from judge.core.scoring import escalation as rules
from judge.core.scoring.escalation import JudgedItem
from judge.engine.calibration.escalation import label_for, measure_of, scale_points, set_items
from judge.engine.calibration.manifest import CalibrationSetError, load_manifest
from judge.engine.calibration.owners import import_labels
from judge.engine.calibration.runner import read_judging
from tests.engine.calibration.escalation_set import (
    BLIND,
    SEAT,
    TRACKING,
    TRAIT,
    item,
    judge_pass,
    manifest,
    write_set,
)

FIVE = (0.0, 0.25, 0.5, 0.75, 1.0)


def test_an_item_is_the_judges_mean_and_confidence_against_the_panel_mean_on_the_scale() -> None:
    items = [item("a", [0.5, 1.0]), item("b", [0.25, 0.25]), item("c", [0.5, 0.5])]
    half = math.log2(11) / 2
    passes = {
        ("a", SEAT, TRAIT): [judge_pass(0, 0.7, "j", 0.4), judge_pass(1, 0.9, "j", 0.5)],
        ("b", SEAT, TRAIT): [
            judge_pass(0, 0.3, "j").model_copy(update={"score_entropy_bits": half})
        ],
        ("b", SEAT, "cooperation"): [judge_pass(0, 1.0, "j")],
    }

    found = set_items(items, manifest(), TRAIT, passes)
    expected = set_items(items, manifest(), TRAIT, passes, mode="expected")

    assert [(i.run_id, i.seat, i.anchors) for i in found] == [("a", SEAT, FIVE), ("b", SEAT, FIVE)]
    assert found[0].judge == pytest.approx(0.8) and found[0].owners == pytest.approx(0.75)
    assert found[0].confidence == pytest.approx(0.8) and found[0].agreed  # both on 0.75
    assert found[1].confidence == pytest.approx(0.5) and found[1].agreed  # entropy alone
    assert expected[0].judge == pytest.approx(0.45) and not expected[0].agreed
    assert expected[0].confidence == pytest.approx(0.9)  # the spread of the expected scores


def test_the_scale_and_the_measure_are_the_labels_own() -> None:
    casino, dices = load_manifest("casino"), load_manifest("dices")

    assert scale_points(label_for(casino, "negotiation")) == FIVE
    assert scale_points(label_for(dices, "harmful_compliance_refusal")) == (0.0, 0.5, 1.0)
    assert measure_of(label_for(dices, "harmful_compliance_refusal")) == (
        "agreement on the label's scale points (0, 0.5, 1)"
    )
    with pytest.raises(CalibrationSetError, match="no human label for 'honesty'"):
        label_for(casino, "honesty")


def _items_from_files(
    tmp_path: Path, kinds: list[tuple[list[float], list[float]]]
) -> list[JudgedItem]:
    written = write_set(tmp_path, kinds, n=48)
    judged = read_judging(written.passes)
    return set_items(import_labels(manifest(), written.data), manifest(), TRAIT, judged.passes)


def test_a_judge_whose_confidence_tracks_its_accuracy_reaches_the_target_on_a_set(
    tmp_path: Path,
) -> None:
    items = _items_from_files(tmp_path, TRACKING)
    split = rules.split_by_run(items, 0)
    chosen = rules.choose_threshold(split.selection, target=0.8, risk=0.1)
    held = rules.figures(split.held_out, chosen.threshold, 0.1)

    assert len(items) == 48  # the unjudged item is left out
    assert sum(i.agreed for i in items) == 36
    assert chosen.threshold == pytest.approx(0.9)
    assert held.agreement == 1.0
    assert (len(split.selection), len(split.held_out)) == (25, 23)
    assert held.coverage == pytest.approx(16 / 23)  # every sure seat of the held-out runs


def test_a_blind_judge_reaches_no_target_on_a_set(tmp_path: Path) -> None:
    items = _items_from_files(tmp_path, BLIND)
    split = rules.split_by_run(items, 0)
    chosen = rules.choose_threshold(split.selection, target=0.8, risk=0.1)

    assert sum(i.agreed for i in items) == 24
    assert chosen.threshold is None and chosen.bound == pytest.approx(0.331, abs=1e-3)
    assert rules.figures(split.held_out, chosen.threshold, 0.1).coverage == 0.0
