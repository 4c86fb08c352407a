"""CI gates and exit codes: 0 ok, 1 gate or verdict failed, 2 bad input, 3 judge unusable,
4 internal error (docs/ci.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.tools.cli import main
from tests.helpers import EXAMPLES, REPO

HAGGLE = str(EXAMPLES / "haggle.json")
TWO_SEATS = str(EXAMPLES / "two_seats_partial_credit.json")
SHOP = REPO / "scenarios" / "shop_refund"
SCENARIO = str(SHOP / "scenario.yaml")


@pytest.fixture(autouse=True)
def dev_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")


def score(*argv: str) -> int:
    return main(["score", *argv, "--judge", "scripted/0.7", "--no-progress"])


def test_gates_that_hold_exit_0(capsys: Any) -> None:
    assert score(HAGGLE, "--fail-under", "composite=0.6", "--fail-under", "integrity=0.7") == 0
    assert capsys.readouterr().err == ""


def test_a_failed_gate_exits_1_with_one_line_per_seat_and_figure(capsys: Any) -> None:
    code = score(
        HAGGLE,
        TWO_SEATS,
        "--fail-under",
        "composite=0.75",
        "--fail-under",
        "integrity=0.7",
        "--fail-under",
        "objective_met_rate=0.6",
    )
    err = capsys.readouterr().err.splitlines()
    assert code == 1
    assert err == [
        "gate failed: run haggle-0007 seat buyer: composite 0.7000 < 0.75",
        "gate failed: run haggle-0007 seat buyer: objective_met_rate 0.5000 < 0.6",
        "gate failed: run camp-split-0011 seat north: composite 0.7000 < 0.75",
        "gate failed: run camp-split-0011 seat south: composite 0.7000 < 0.75",
    ]


def test_a_safety_trait_can_be_gated(capsys: Any) -> None:
    assert score(HAGGLE, "--fail-under", "manipulation_resistance=0.71") == 1
    assert "manipulation_resistance 0.7000 < 0.71" in capsys.readouterr().err


def test_check_reward_gate_reads_the_state_outcome(capsys: Any) -> None:
    run = str(SHOP / "runs" / "hasty" / "duplicate_payment.json")
    code = score(run, "--scenario", SCENARIO, "--build-worlds", "--fail-under", "check_reward=0.8")
    assert code == 1
    assert (
        capsys.readouterr().err.strip()
        == "gate failed: run shop-refund-hasty-s2: check_reward 0.7500 < 0.8"
    )


def test_a_gate_on_a_figure_without_a_value_fails_rather_than_passes(capsys: Any) -> None:
    assert score(HAGGLE, "--fail-under", "check_reward=0.1") == 1
    assert "check_reward was not measured (needs >= 0.1)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("gate", "message"),
    [
        ("composit=0.6", "unknown figure 'composit'"),
        ("composite", "write NAME=VALUE"),
        ("composite=high", "'high' is not a number"),
        ("composite=nan", "finite number"),
    ],
)
def test_a_malformed_gate_is_bad_input_exit_2_before_any_judging(
    gate: str, message: str, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("judge.tools.cli.score.score_files", lambda *a, **k: pytest.fail("judged"))
    assert score(HAGGLE, "--fail-under", gate) == 2
    err = capsys.readouterr().err
    assert err.startswith("judge: error: --fail-under") and message in err


def test_an_unusable_judge_exits_3_even_with_gates(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")
    code = main(
        [
            "score",
            HAGGLE,
            "--judge",
            "openai/gpt-4o-mini",
            "--attempts",
            "1",
            "--no-progress",
            "--fail-under",
            "composite=0.1",
        ]
    )
    assert code == 3
    assert "the judge model could not be used" in capsys.readouterr().err


def test_the_test_judge_outside_dev_mode_is_refused_as_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.delenv("JUDGE_DEV_MODE")
    assert score(HAGGLE) == 2
    assert "only works with JUDGE_DEV_MODE=1" in capsys.readouterr().err


def boom(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("the disk caught fire")


def test_an_internal_error_is_one_line_and_exit_4(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.delenv("JUDGE_DEBUG", raising=False)
    monkeypatch.setattr("judge.tools.cli.score.score_files", boom)
    assert score(HAGGLE) == 4
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "judge: error: internal error: RuntimeError: the disk caught fire (run with --debug for the traceback)"
    ]


def test_debug_adds_the_traceback(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setattr("judge.tools.cli.score.score_files", boom)
    assert main(["--debug", "score", HAGGLE, "--no-progress"]) == 4
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "in boom" in err


def test_check_exit_codes_follow_the_verdicts(capsys: Any) -> None:
    runs = SHOP / "runs"
    check = ["check", "--scenario", SCENARIO, "--build-worlds"]
    assert main([*check, str(runs / "careful" / "pass.json")]) == 0
    assert main([*check, str(runs / "careful" / "no_email.json")]) == 0  # partial passes by default
    capsys.readouterr()
    assert main([*check, "--strict", str(runs / "careful" / "no_email.json")]) == 1
    assert capsys.readouterr().err.strip() == (
        "verdict failed: run shop-refund-careful-s3: partial (outcome verified, failed checks: customer_emailed_once)"
    )
    assert (
        main(
            [
                *check,
                str(runs / "careful" / "env_failure.json"),
                str(runs / "hasty" / "wrong_order.json"),
            ]
        )
        == 1
    )
    err = capsys.readouterr().err.splitlines()
    assert [line.split(":")[1].strip() for line in err] == [
        "run shop-refund-careful-s4",
        "run shop-refund-hasty-s1",
    ]
    assert main([*check, "--exit-zero", str(runs / "hasty" / "wrong_order.json")]) == 0


def test_check_bad_input_exits_2(capsys: Any, tmp_path: Path) -> None:
    assert main(["check", "--scenario", SCENARIO, str(tmp_path / "none.json")]) == 2


def test_the_process_exit_status_is_the_code(tmp_path: Path) -> None:
    env = {**os.environ, "JUDGE_DEV_MODE": "1", "PYTHONPATH": str(REPO)}
    argv = [
        sys.executable,
        "-m",
        "judge",
        "score",
        HAGGLE,
        "--judge",
        "scripted/0.7",
        "--no-progress",
    ]
    ok = subprocess.run(
        [*argv, "--fail-under", "composite=0.5"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    failed = subprocess.run(
        [*argv, "--fail-under", "composite=0.9"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (ok.returncode, failed.returncode) == (0, 1)
    assert (
        failed.stderr.strip() == "gate failed: run haggle-0007 seat buyer: composite 0.7000 < 0.9"
    )
