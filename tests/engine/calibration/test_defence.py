"""`judge calibrate --defence both`: the set judged each way, each side in its own store and
reports, and on minus off agreement with a paired bootstrap (docs/integrity.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.core.domain.interval import Interval
from judge.core.versions import JUDGE_PROMPT_VERSION, UNDEFENDED_PROMPT_VERSION
from judge.engine.calibration.defence import DefenceRow, reading
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.tools.cli import main

ARGS = ["--limit", "6", "--passes", "2", "--traits", "harmful_compliance_refusal", "--no-progress"]


def spotlit_scores_lower(request: JudgeRequest) -> str:
    """0.9 on a plain transcript, 0.2 on a spotlit one: the defence visibly moves the judge."""
    spotlit = "^" in request.messages[1]["content"][0]["text"]
    return json.dumps({"score": 0.2 if spotlit else 0.9, "turns": [1], "rationale": "r"})


def calibrate(out: Path, *extra: str) -> int:
    return main(["calibrate", "dices", "--judge", "scripted-x", "--out", str(out), *ARGS, *extra])


def test_defence_both_judges_each_side_into_its_own_store_and_compares_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dices_dir: Path
) -> None:
    backend = ScriptedBackend(spotlit_scores_lower, model="scripted-x")
    monkeypatch.setattr("judge.tools.cli.calibration.backend_for", lambda model: backend)
    assert calibrate(tmp_path, "--defence", "both") == 0
    assert len(backend.history) == 2 * 6 * 2  # both sides, 6 items, 2 passes
    for side, version, score in (
        ("defence-off", UNDEFENDED_PROMPT_VERSION, 0.9),
        ("defence-on", JUDGE_PROMPT_VERSION, 0.2),
    ):
        lines = (tmp_path / side / "passes.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        assert {r["prompt_version"] for r in records} == {version}
        assert {r["pass"]["score"] for r in records} == {score}
        assert (tmp_path / side / "report.json").is_file()
    comparison = json.loads((tmp_path / "defence.json").read_text())
    [row] = comparison["rows"]
    assert (row["pass_score"], row["n_items"]) == ("sampled", 6)
    assert row["mae_off"] != row["mae_on"]
    assert "| harmful_compliance_refusal vs safety | sampled | 6 |" in (
        (tmp_path / "defence.md").read_text()
    )


def test_a_single_side_writes_where_it_always_did(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dices_dir: Path
) -> None:
    backend = ScriptedBackend(spotlit_scores_lower, model="scripted-x")
    monkeypatch.setattr("judge.tools.cli.calibration.backend_for", lambda model: backend)
    assert calibrate(tmp_path, "--defence", "off") == 0
    assert (tmp_path / "passes.jsonl").is_file() and not (tmp_path / "defence.md").exists()
    assert all("^" not in r.messages[1]["content"][0]["text"] for r in backend.history)


def row(low: float | None, high: float | None) -> DefenceRow:
    none = Interval(estimate=None, low=None, high=None)
    return DefenceRow(
        trait="t",
        label="l",
        pass_score="sampled",
        n_items=5,
        spearman_off=none,
        spearman_on=none,
        spearman_difference=Interval(estimate=0.0, low=low, high=high),
        mae_off=None,
        mae_on=None,
        mae_difference=none,
    )


def test_the_reading_follows_the_interval_of_the_difference() -> None:
    assert reading(row(-0.5, -0.1)) == "worse with the defence (interval below 0)"
    assert reading(row(0.1, 0.5)) == "better with the defence (interval above 0)"
    assert reading(row(-0.2, 0.3)) == "no measurable difference (interval includes 0)"
    assert reading(row(None, None)) == "not measurable"
