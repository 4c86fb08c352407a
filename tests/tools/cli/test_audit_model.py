"""`judge audit` with the real embedded SmolLM2 judge on two CaSiNo dialogues."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from judge.engine.calibration.manifest import shared_data_dir
from judge.tools.cli import main

pytestmark = pytest.mark.model


def test_the_embedded_judge_is_audited_on_two_casino_dialogues(tmp_path: Path) -> None:
    data = shared_data_dir() / "casino" / "casino_test.json"
    if not data.is_file():
        pytest.skip(f"shared data not found at {data} (set JUDGE_SHARED_DATA)")
    args = ["audit", "--set", "casino", "--data", str(data), "--limit", "2", "--passes", "2",
            "--traits", "negotiation", "--perturbations", "planted.plain", "--out", str(tmp_path), "--no-progress"]  # fmt: skip
    assert main(args) == 0
    lines = (tmp_path / "passes.jsonl").read_text().splitlines()
    assert len(lines) == 2 * 2 * 2 * 2  # dialogues x seats x (baseline, planted) x passes
    means: dict[tuple[str, str], list[float]] = defaultdict(list)
    for record in map(json.loads, lines):
        assert record["judge_model"] == "embedded/smollm2-135m-instruct"
        run_id, seat, name, _ = record["item_id"].split("|")
        if record["pass"]["score"] is not None:
            means[(f"{run_id}|{seat}", name)].append(record["pass"]["score"])
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["n_runs"], report["n_seats"], report["judge_note"] is not None) == (2, 4, True)
    for shift in report["seats"]:
        key = f"{shift['run_id']}|{shift['seat']}"
        base, moved = means.get((key, "baseline")), means.get((key, "planted.plain"))
        if base and moved:
            assert shift["shift"] == pytest.approx(sum(moved) / len(moved) - sum(base) / len(base))
    row = report["rows"][0]
    if row["n"]:
        assert row["mean_shift"]["low"] <= row["mean_shift"]["value"] <= row["mean_shift"]["high"]
    assert "tiny embedded SmolLM2-135M model" in (tmp_path / "report.md").read_text()
    assert main(args) == 0  # resumed: nothing judged again
    assert len((tmp_path / "passes.jsonl").read_text().splitlines()) == len(lines)
