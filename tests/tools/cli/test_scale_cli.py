"""`judge serve --workers 0` and `judge worker` refuse a store they cannot scale out on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.engine.settings import get_settings
from judge.tools.cli import EXIT_INPUT, main


@pytest.fixture
def sqlite_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'judge.db'}")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_an_api_only_node_on_sqlite_is_refused(
    sqlite_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--workers", "0"]) == EXIT_INPUT
    assert "JUDGE_WORKERS=0 (an API-only node) needs the job queue" in capsys.readouterr().err


def test_a_worker_on_sqlite_is_refused(
    sqlite_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["worker"]) == EXIT_INPUT
    assert "judge worker takes jobs from the PostgreSQL queue" in capsys.readouterr().err


def test_a_worker_concurrency_out_of_range_is_refused(
    sqlite_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["worker", "--concurrency", "0"]) == EXIT_INPUT
    assert "--concurrency must lie in 1-256, not 0" in capsys.readouterr().err


def test_the_queue_executor_on_sqlite_is_refused(
    sqlite_env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUDGE_EXECUTOR", "queue")
    assert main(["serve"]) == EXIT_INPUT
    assert "JUDGE_EXECUTOR=queue needs a PostgreSQL JUDGE_DATABASE_URL" in capsys.readouterr().err
