"""`judge escalation set|show|curve|drop` against a SQLite store the service would have made,
holding runs a scripted judge scored and the owner's labels."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.engine.settings import get_settings
from judge.server.store.db import make_engine
from judge.tools.cli import EXIT_INPUT, main
from tests.engine.calibration.escalation_set import BLIND, TRACKING, write_set
from tests.server.service.escalation_world import blind, load, tracking


def _store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    monkeypatch.setenv("JUDGE_JWT_SECRET", "cli-test-secret-that-is-long-enough-0123456789")
    monkeypatch.delenv("JUDGE_DEV_MODE", raising=False)
    get_settings.cache_clear()
    assert main(["db", "upgrade"]) == 0
    return url


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = _store(tmp_path, monkeypatch)
    engine = make_engine(url)
    load(engine, tracking(n=48))
    engine.dispose()
    yield url
    get_settings.cache_clear()


def test_set_prints_the_threshold_and_the_held_out_figures(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["escalation", "set", "negotiation", "--target", "0.8", "--owner", "ana"]) == 0
    printed = capsys.readouterr().out

    assert "negotiation: target 0.8 (anchor agreement), risk 0.1, seed 0" in printed
    assert "threshold 0.90: agreement on the kept items is at least 0.8" in printed
    assert "agreement 1.00, target met" in printed
    assert main(["escalation", "show"]) == 0
    assert "threshold 0.90" in capsys.readouterr().out


def test_curve_prints_both_splits_from_the_surest_items_down(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["escalation", "curve", "negotiation"]) == 0
    lines = capsys.readouterr().out.splitlines()

    assert (
        lines[0].startswith("selection: threshold")
        and "held-out: threshold  coverage  agreement  kept" in lines
    )
    assert [float(x.split()[0]) for x in lines[1:4]] == [1.0, 0.9, 0.0]


def test_drop_removes_the_target_and_a_second_drop_is_an_error(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["escalation", "set", "negotiation", "--target", "0.8"])
    assert main(["escalation", "drop", "negotiation"]) == 0
    assert main(["escalation", "drop", "negotiation"]) != 0
    assert main(["escalation", "show"]) == 0
    assert "no escalation target is set" in capsys.readouterr().out


def test_a_target_out_of_range_names_the_option(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["escalation", "set", "negotiation", "--target", "1.5"]) == EXIT_INPUT
    assert "target" in capsys.readouterr().err


def test_an_unreachable_target_says_so_and_keeps_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = make_engine(_store(tmp_path, monkeypatch))
    load(engine, blind(n=48))
    engine.dispose()

    assert main(["escalation", "set", "negotiation", "--target", "0.8"]) == 0
    printed = capsys.readouterr().out
    get_settings.cache_clear()

    assert "threshold -: target 0.8 not reachable" in printed
    assert "coverage 0.00, agreement -, target NOT met" in printed


def _on_set(tmp_path: Path, kinds: list[tuple[list[float], list[float]]]) -> list[str]:
    written = write_set(tmp_path, kinds, n=48)
    return [
        "--set",
        str(written.manifest),
        "--passes",
        str(written.passes),
        "--data",
        str(written.data),
    ]


def test_on_a_calibration_set_a_tracking_judge_reaches_the_target_and_nothing_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'never.db'}")
    where = _on_set(tmp_path, TRACKING)

    assert main(["escalation", "set", "negotiation", "--target", "0.8", *where]) == 0
    out, err = capsys.readouterr()

    assert out.startswith(
        "haggle-ratings: negotiation against the label 'rating'; judge scripted-judge, "
        "pass score sampled; agreement on the label's scale points (0, 0.25, 0.5, 0.75, 1)"
    )
    assert "threshold 0.90: agreement on the kept items is at least 0.8" in out
    assert "held-out:  23 items of 23 runs, coverage 0.70, agreement 1.00, target met" in out
    assert "printed, not stored" in err
    assert not (tmp_path / "never.db").exists()


def test_on_a_calibration_set_a_blind_judge_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = _on_set(tmp_path, BLIND)

    assert main(["escalation", "set", "negotiation", "--target", "0.8", "--json", *where]) == 0
    found = json.loads(capsys.readouterr().out)

    assert found["reachable"] is False and found["threshold"] is None
    assert found["held_out"]["coverage"] == 0.0
    assert found["measure"] == "agreement on the label's scale points (0, 0.25, 0.5, 0.75, 1)"
    assert "not reachable" in found["note"]


def test_the_curve_of_a_calibration_set_runs_from_the_surest_seats_down(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["escalation", "curve", "negotiation", *_on_set(tmp_path, TRACKING)]) == 0
    lines = capsys.readouterr().out.splitlines()

    assert lines[1].startswith("selection: threshold")
    assert [float(x.split()[0]) for x in lines[2:5]] == [1.0, 0.9, 0.0]
    assert [float(x.split()[2]) for x in lines[2:5]] == [1.0, 1.0, 0.8]


def test_a_set_needs_its_pass_store_and_a_trait_it_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = _on_set(tmp_path, TRACKING)

    for partial in (where[:2], where[2:4], where[4:]):
        assert main(["escalation", "curve", "negotiation", *partial]) == EXIT_INPUT
        assert "--set NAME and --passes PATH go together" in capsys.readouterr().err
    assert main(["escalation", "curve", "cooperation", *where]) == EXIT_INPUT
    assert "haggle-ratings has no human label for 'cooperation'" in capsys.readouterr().err
