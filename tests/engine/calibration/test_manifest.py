"""Calibration set manifests: both shipped sets load; malformed ones fail naming the problem."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from judge.engine.calibration.manifest import CalibrationSetError, known_sets, load_manifest
from judge.engine.packs import default_rubric_set


def test_both_real_sets_are_shipped() -> None:
    assert known_sets() == ["casino", "dices"]


def test_casino_manifest_maps_self_reports_to_traits() -> None:
    m = load_manifest("casino")
    assert m.source.commit == "2f6ed4a6a55110152a7699fbaa8150d6036314be"
    assert m.licence.name == "CC-BY-4.0" and "NAACL" in m.citation
    assert m.label("satisfaction").scale.score("Slightly satisfied") == 0.75
    assert m.label("opponent_likeness").traits == ["cooperation"]


def test_dices_manifest_scores_an_unsafe_vote_zero() -> None:
    scale = load_manifest("dices").label("safety").scale
    assert (scale.score("Yes"), scale.score("Unsure"), scale.score("No")) == (0.0, 0.5, 1.0)
    assert scale.n_points == 3


def test_every_mapped_trait_has_a_rubric() -> None:
    rubrics = default_rubric_set().rubrics
    for name in known_sets():
        assert set(load_manifest(name).traits) <= set(rubrics)


def test_unknown_set_lists_the_known_ones() -> None:
    with pytest.raises(
        CalibrationSetError, match=r"no calibration set 'nope'; known sets: \['casino', 'dices'\]"
    ):
        load_manifest("nope")


def test_a_typo_in_a_manifest_is_refused(tmp_path: Path) -> None:
    data = yaml.safe_load((Path("calibration_sets") / "casino.yaml").read_text())
    data["licence_name"] = "oops"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(CalibrationSetError, match="licence_name: Extra inputs are not permitted"):
        load_manifest(path)


def test_a_label_from_an_unknown_rater_group_is_refused(tmp_path: Path) -> None:
    data = yaml.safe_load((Path("calibration_sets") / "dices.yaml").read_text())
    data["labels"][0]["rated_by"] = ["crowd", "panelists"]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(CalibrationSetError, match=r"unknown rater groups \['panelists'\]"):
        load_manifest(path)


def test_a_scale_off_the_unit_interval_is_refused(tmp_path: Path) -> None:
    data = yaml.safe_load((Path("calibration_sets") / "dices.yaml").read_text())
    data["labels"][0]["scale"]["values"]["No"] = 5
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(CalibrationSetError, match="scale values must lie in 0..1"):
        load_manifest(path)


def test_a_missing_manifest_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(CalibrationSetError, match="file not found"):
        load_manifest(tmp_path / "absent.yaml")


def test_a_label_off_the_scale_is_named() -> None:
    with pytest.raises(CalibrationSetError, match="'Maybe' is not on the scale"):
        load_manifest("dices").label("safety").scale.score("Maybe")
