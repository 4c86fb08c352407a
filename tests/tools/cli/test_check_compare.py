"""The check and compare commands, through their argparse registration."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from judge.tools.cli import check, compare
from tests.engine.checks.conftest import SHOP, SHOP_RUNS

SCENARIO = str(SHOP / "scenario.yaml")


def judge(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="judge")
    subparsers = parser.add_subparsers(required=True)
    check.register(subparsers)
    compare.register(subparsers)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


def runs(side: str) -> list[str]:
    return [str(p) for p in sorted((SHOP_RUNS / side).glob("*.json"))]


def test_check_prints_the_outcome_every_check_and_the_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = judge(
        "check",
        str(SHOP_RUNS / "hasty" / "duplicate_payment.json"),
        "--scenario",
        SCENARIO,
        "--build-worlds",
    )
    out = capsys.readouterr().out.splitlines()
    assert code == 1  # the verdict is fail
    assert (
        out[1] == "outcome rule_violated (reward -1)  verdict fail  passed no  checks passed 0.750"
    )
    assert (
        "  FAIL  lamp_refunded                goal      required state_predicate answered 5000, expected 2500"
        in out
    )
    assert "failed required: lamp_refunded, refunds_within_captured" in out
    assert out[-3].startswith(
        "summary: false completion yes, duplicate effects 1, recovered no (faults 1)"
    )


def test_check_json_is_the_state_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    code = judge(
        "check",
        str(SHOP_RUNS / "careful" / "pass.json"),
        "--scenario",
        SCENARIO,
        "--build-worlds",
        "--json",
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (data["outcome"], data["reward"], data["verdict"], data["check_reward"]) == (
        "verified",
        1,
        "pass",
        1.0,
    )
    assert data["diagnostics"] == {"tool_calls": 3, "tool_errors": 0, "source": "trace"}


def test_check_of_several_runs_adds_the_rollout_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        judge("check", *runs("careful"), *runs("hasty"), "--scenario", SCENARIO, "--build-worlds")
        == 1
    )
    out = capsys.readouterr().out
    assert "rollouts: 9 runs, 8 scored" in out
    assert "reward: best 1, worst -1, mean 0.125" in out
    assert "  unscoreable: 1 (outside the rates) runs: shop-refund-careful-s4" in out
    assert "metric refunded_cents: failed, mean over 8 runs is 2587.5, expected at most 2500" in out


def test_check_json_is_one_line_per_run_file_whatever_their_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = [*runs("careful"), *runs("hasty")]
    judge("check", *files, "--scenario", SCENARIO, "--build-worlds", "--json")
    lines = capsys.readouterr().out.splitlines()
    outcomes = [json.loads(line) for line in lines]
    assert len(lines) == len(files) == 9
    assert sorted(o["run_id"] for o in outcomes) == sorted(
        json.loads(Path(f).read_text())["run_id"] for f in files
    )
    assert all("rollouts" not in o for o in outcomes)


def test_without_built_worlds_the_missing_databases_make_the_run_not_scored(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        judge("check", str(SHOP_RUNS / "careful" / "pass.json"), "--scenario", SCENARIO, "--json")
        == 1  # unscoreable: not shown to pass
    )
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] == "not_scored"
    assert "no SQLite database at" in data["not_scored_reason"]


def test_compare_reports_pairs_the_test_and_the_unpaired_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = judge(
        "compare",
        "--a",
        *runs("careful"),
        "--b",
        *runs("hasty"),
        "--scenario",
        SCENARIO,
        "--build-worlds",
    )
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == "matched comparison: A = careful-agent, B = hasty-agent, 4 pairs"
    assert out[1] == (
        "  shop-refund seed 1 dana-changes-mind-v1: shop-refund-careful-s1 verified vs "
        "shop-refund-hasty-s1 rule_violated: A-B +2"
    )
    assert out[-2] == "at alpha 0.05: neither side is shown better"
    assert out[-1].startswith("unpaired (B) shop-refund-hasty-s5: careful-agent has 0 run(s)")


def test_compare_json_carries_the_paired_test(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "--a", *runs("careful"), "--b", *runs("hasty"), "--scenario", SCENARIO,
            "--build-worlds", "--json", "--label-a", "A1", "--measure", "check_reward"]  # fmt: skip
    assert judge(*argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["label_a"], data["label_b"]) == ("A1", "hasty-agent")
    assert [p["difference"] for p in data["pairs"]] == [0.125, 0.25, 0.375, None]
    assert data["test"]["measure"] == "check_reward"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "missing.json", "--scenario", SCENARIO], "missing.json: cannot read the run file"),
        (["check", str(SHOP_RUNS / "careful" / "pass.json"), "--scenario", "nope.yaml"],
         "nope.yaml: cannot read the scenario file"),
        (["compare", "--a", "x.json", "--b", "y.json", "--scenario", SCENARIO, "--alpha", "2"],
         "--alpha must be between 0 and 1, not 2.0"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_a_judge_error_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert judge(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("judge: error: ")
    assert message in err


def test_a_run_of_another_scenario_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = json.loads((SHOP_RUNS / "careful" / "pass.json").read_text())
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**data, "scenario_id": "somewhere-else"}))
    assert judge("check", str(other), "--scenario", SCENARIO) == 2
    assert "run shop-refund-careful-s1 is of scenario 'somewhere-else'" in capsys.readouterr().err


def test_a_malformed_run_file_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"run_id": "x", "seats": [}')
    assert judge("check", str(broken), "--scenario", SCENARIO) == 2
    assert "broken.json: not valid JSON" in capsys.readouterr().err
