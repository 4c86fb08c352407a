"""``judge compare --pairwise`` on run folders, with the scripted judge (always the first seat)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.tools.cli import main
from tests.pairwise_builders import agent_run


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    for agent in ("a", "b"):
        (tmp_path / agent).mkdir()
        for seed in (1, 2, 3):
            run = agent_run(f"agent-{agent}", f"{agent}-{seed}", seed=seed)
            (tmp_path / agent / f"{seed}.json").write_text(run.model_dump_json())
    return tmp_path / "a", tmp_path / "b"


def compare(a: Path, b: Path, *extra: str) -> int:
    return main(
        ["compare", "--pairwise", "--a", str(a), "--b", str(b), "--judge", "scripted/0.5", *extra]
    )


def test_the_always_first_judge_reads_a_full_flip_rate_and_tied_ratings(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare(*folders, "--json", "--bootstrap", "20") == 0
    result = json.loads(capsys.readouterr().out)
    assert [p["outcome"] for p in result["pairs"]] == ["tie"] * 3
    assert (result["bias"]["flip_rate"], result["bias"]["first_position_rate"]) == (1.0, 1.0)
    ratings = result["ratings"][0]["ratings"]
    assert [(r["agent_id"], r["rating"], r["rank"]) for r in ratings] == [
        ("agent-a", 0.0, 1),
        ("agent-b", 0.0, 1),
    ]


def test_the_text_report_shows_both_orders_of_each_pair_and_the_bias(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare(*folders, "--bootstrap", "20") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (
        "  market-haggle seed 1: a-1:buyer vs b-1:buyer: AB a (5/0/0), BA b (0/5/0) -> tie FLIP"
    )
    assert "flips 3 of 3 decisive pairs (100% [44%, 100%])" in out[4]


def test_an_unknown_trait_is_refused_naming_the_known_ones(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare(*folders, "--trait", "charm") == 2
    err = capsys.readouterr().err
    assert "--trait: unknown trait 'charm' (known: ['calibration'," in err


def test_a_folder_without_runs_is_refused(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    assert compare(folders[0], tmp_path / "empty") == 2
    assert "the folder holds no run file (*.json)" in capsys.readouterr().err


def test_without_pairwise_the_outcome_comparison_still_needs_a_scenario(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["compare", "--a", str(folders[0] / "1.json"), "--b", str(folders[1] / "1.json")])
    assert code == 2 and "--scenario is needed" in capsys.readouterr().err


def test_two_positional_folders_read_as_a_and_b(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = folders
    code = main(["compare", str(a), str(b), "--pairwise", "--judge", "scripted/0.5", "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["pairs"]) == 3


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["only-one"], "give two paths, A and B, not 1"),
        (["x", "y", "--a", "z"], "not both"),
        ([], "give A's and B's runs"),
    ],
)
def test_the_sides_are_named_when_given_wrong(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", "--pairwise", *extra]) == 2
    assert message in capsys.readouterr().err
