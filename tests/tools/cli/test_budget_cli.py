"""`judge budget holds [--clear-expired] [--json]` against a SQLite store the service would
have made (docs/service.md, "Budgets"): it lists each hold with whether it expired, and
clearing removes only the expired ones."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.engine.settings import get_settings
from judge.server.service.budgets import day_start
from judge.server.store import spend
from judge.server.store.db import make_engine, transaction
from judge.tools.cli import main


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A migrated store holding a dead request's expired hold (id 1) and a live one (id 2)."""
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    monkeypatch.setenv("JUDGE_JWT_SECRET", "cli-test-secret-that-is-long-enough-0123456789")
    monkeypatch.delenv("JUDGE_DEV_MODE", raising=False)
    get_settings.cache_clear()
    assert main(["db", "upgrade"]) == 0
    midnight = day_start()
    engine = make_engine(url)
    with transaction(engine) as session:
        spend.add_hold(
            session,
            purpose="align",
            what="judge align for negotiation",
            by="owner:ana",
            tokens=1200,
            cost_usd=0.5,
            now=midnight,
            expires_at=midnight,
        )
        spend.add_hold(
            session,
            purpose="align",
            what="judge align for cooperation",
            by="cli",
            tokens=800,
            cost_usd=None,
            now=midnight,
            expires_at=datetime.now(UTC) + timedelta(hours=1),
        )
    engine.dispose()
    yield url
    get_settings.cache_clear()


def _rows(printed: str) -> list[list[str]]:
    return [line.split() for line in printed.splitlines()]


def test_the_list_shows_each_hold_with_who_and_whether_it_expired(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "holds"]) == 0
    header, dead, live = _rows(capsys.readouterr().out)

    assert header[:2] == ["id", "created"]
    midnight = [day_start().strftime("%Y-%m-%d"), "00:00:00"]
    what = ["judge", "align", "for"]
    assert dead == ["1", *midnight, *midnight, "1200", "0.5000", "owner:ana", "yes", *what,
                    "negotiation"]  # fmt: skip
    assert live[:3] == ["2", *midnight]
    assert live[5:] == ["800", "-", "cli", "no", *what, "cooperation"]


def test_clearing_removes_only_the_expired_hold(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "holds", "--clear-expired"]) == 0
    cleared, _header, live = capsys.readouterr().out.splitlines()
    assert cleared == "cleared 1 expired hold (1)"
    assert live.split()[0] == "2"

    assert main(["budget", "holds", "--clear-expired", "--json"]) == 0
    (left,) = json.loads(capsys.readouterr().out)
    assert (left["id"], left["by"], left["tokens"], left["expired"]) == (2, "cli", 800, False)


def test_an_empty_store_says_so(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    engine = make_engine(store)
    with transaction(engine) as session:
        for hold_id in (1, 2):
            spend.drop_hold(session, hold_id=hold_id)
    engine.dispose()
    assert main(["budget", "holds", "--clear-expired"]) == 0
    assert capsys.readouterr().out == "cleared 0 expired holds\nno budget holds\n"
