"""`judge calibrate --pass-score both` reports both modes from one judging; a panel calibrates."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from judge.core.domain.judging import JudgePass
from judge.engine.calibration.items import read_jsonl
from judge.engine.calibration.modes import paired_difference, rescored, verdict
from judge.engine.calibration.runner import PassRecord
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.judging.panel import PanelBackend
from judge.tools.cli import main
from tests.engine.judging.test_runner_signal import weighted


def belt_reply(request: JudgeRequest) -> JudgeReply:
    """Writes 0.7 on every item; the distribution leans low (expected 0.4) when a belt is named."""
    if "belt" in json.dumps(request.messages):
        return weighted({"0": 1.0}, {"7": 0.5, "1": 0.5})
    return weighted({"0": 0.6, "1": 0.4}, {"7": 0.5, "5": 0.25, "0": 0.25})


ARGS = ["--limit", "6", "--passes", "2", "--traits", "harmful_compliance_refusal", "--no-progress"]


def test_both_modes_come_from_one_judging(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dices_dir: Path
) -> None:
    backend = ScriptedBackend(belt_reply, model="logprob-judge")
    monkeypatch.setattr("judge.tools.cli.calibration.backend_for", lambda model: backend)
    out = tmp_path / "out"
    assert (
        main(
            [
                "calibrate",
                "dices",
                "--judge",
                "logprob-judge",
                "--out",
                str(out),
                "--pass-score",
                "both",
                *ARGS,
            ]
        )
        == 0
    )
    assert len(backend.history) == 6 * 2  # judged once for both modes
    sampled = json.loads((out / "sampled" / "report.json").read_text())
    expected = json.loads((out / "expected" / "report.json").read_text())
    assert (sampled["pass_score"], expected["pass_score"]) == ("sampled", "expected")
    s_points = {p["item_id"]: p["judge"] for p in sampled["traits"][0]["points"]}
    e_points = {p["item_id"]: p["judge"] for p in expected["traits"][0]["points"]}
    assert set(s_points.values()) == {0.7}
    assert set(np.round(list(e_points.values()), 6)) <= {0.4, 0.685}
    modes = json.loads((out / "modes.json").read_text())
    row = modes["rows"][0]
    assert (row["n_items"], row["n_passes"], row["n_with_distribution"]) == (6, 12, 12)
    assert row["spearman_sampled"]["value"] is None  # a constant written score ranks nothing
    assert "| harmful_compliance_refusal vs safety | 6 |" in (out / "modes.md").read_text()
    stored = read_jsonl(out / "passes.jsonl", PassRecord)
    assert all(r.judge_pass.score == r.judge_pass.sampled_score == 0.7 for r in stored)
    assert all(r.judge_pass.expected_score is not None for r in stored)


def test_rescoring_switches_each_pass_to_its_mode_and_falls_back_without_a_distribution() -> None:
    with_dist = JudgePass(
        trait="t",
        index=0,
        model="m",
        parse_status="ok",
        score=0.7,
        sampled_score=0.7,
        expected_score=0.42,
    )
    plain = JudgePass(trait="t", index=1, model="m", parse_status="ok", score=0.3)
    passes = {("i", "s", "t"): [with_dist, plain]}
    assert [p.score for p in rescored(passes, "expected")[("i", "s", "t")]] == [0.42, 0.3]
    assert [p.score for p in rescored(passes, "sampled")[("i", "s", "t")]] == [0.7, 0.3]


def test_the_paired_difference_reads_which_mode_agrees_better() -> None:
    rng = np.random.default_rng(3)
    human = rng.random(60)
    expected = human + rng.normal(0, 0.05, 60)  # tracks people closely
    sampled = np.round(rng.random(60))  # noise
    d = paired_difference(sampled, expected, human)
    assert d.estimate is not None and d.low is not None and d.low > 0.5
    from judge.core.domain.interval import Interval
    from judge.engine.calibration.modes import ModeRow

    row = ModeRow(
        trait="t",
        label="l",
        n_items=60,
        n_passes=60,
        n_with_distribution=60,
        n_spread=60,
        mean_entropy_bits=1.0,
        spearman_sampled=Interval(estimate=0.0, low=-0.2, high=0.2),
        spearman_expected=Interval(estimate=0.9, low=0.8, high=0.95),
        spearman_difference=d,
        mae_sampled=0.5,
        mae_expected=0.05,
    )
    assert verdict(row) == "expected agrees better (interval above 0)"


def test_calibrate_accepts_a_panel(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dices_dir: Path
) -> None:
    a = ScriptedBackend(lambda r: '{"score": 0.2, "turns": [1], "rationale": "a"}', model="judge-a")
    b = ScriptedBackend(lambda r: '{"score": 0.8, "turns": [1], "rationale": "b"}', model="judge-b")
    monkeypatch.setattr(
        "judge.tools.cli.calibration.backend_for", lambda model: PanelBackend([a, b])
    )
    out = tmp_path / "panel"
    assert main(["calibrate", "dices", "--judge", "judge-a,judge-b", "--out", str(out), *ARGS]) == 0
    assert len(a.history) == len(b.history) == 6 * 2
    report = json.loads((out / "report.json").read_text())
    assert report["judge_model"] == "judge-a,judge-b"
    assert {round(p["judge"], 6) for p in report["traits"][0]["points"]} == {
        0.5
    }  # the panel's mean
    rows = [json.loads(line) for line in (out / "judge_scores.jsonl").read_text().splitlines()]
    assert rows[0]["passes"] == [0.2, 0.2, 0.8, 0.8]
