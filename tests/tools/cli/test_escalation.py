"""`judge escalation set|show|curve|drop` against a SQLite store the service would have made,
holding runs a scripted judge scored and the owner's labels."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.engine.settings import get_settings
from judge.server.store.db import make_engine
from judge.tools.cli import EXIT_INPUT, main
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
