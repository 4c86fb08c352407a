"""`judge keys create|list|revoke` and `judge token create` over the service's settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from judge.engine.settings import get_settings
from judge.server.auth import hash_key, verify_owner_token
from judge.server.store.db import make_engine, transaction
from judge.server.store.tables import AgentKeyRow
from judge.tools.cli import main

SECRET = "cli-test-secret-that-is-long-enough-0123456789"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    monkeypatch.setenv("JUDGE_JWT_SECRET", SECRET)
    monkeypatch.delenv("JUDGE_DEV_MODE", raising=False)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def test_keys_create_prints_the_key_once_and_stores_its_hash(
    env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "create", "--agent", "agent-alpha", "--seat", "buyer"]) == 0
    key = capsys.readouterr().out.strip()

    with transaction(make_engine(env)) as session:
        row = session.exec(select(AgentKeyRow)).one()
    assert key.startswith("sk_live_") and row.key_sha256 == hash_key(key)
    assert (row.agent_id, row.seat) == ("agent-alpha", "buyer")

    assert main(["keys", "list"]) == 0
    listed = capsys.readouterr().out
    assert (
        f"sk_live_{row.prefix}_…  agent=agent-alpha  seat=buyer  live" in listed
        and key not in listed
    )
    assert main(["keys", "revoke", row.prefix]) == 0
    assert capsys.readouterr().out.strip() == f"revoked sk_live_{row.prefix}_…"


def test_keys_create_refuses_a_bad_agent_id(env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "create", "--agent", "agent alpha", "--seat", "buyer"]) == 2
    assert "--agent: 'agent alpha' is not a valid identifier" in capsys.readouterr().err


def test_token_create_signs_with_the_configured_secret(
    env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["token", "create", "--owner", "ops", "--ttl", "15m"]) == 0
    token = capsys.readouterr().out.strip()

    claims = verify_owner_token(token, secret=SECRET, audience="judge")
    assert claims.owner == "ops"


def test_token_create_refuses_an_unsafe_secret(
    env: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUDGE_JWT_SECRET", "short")
    get_settings.cache_clear()

    assert main(["token", "create", "--owner", "ops"]) == 2
    assert "JUDGE_JWT_SECRET is shorter than 32 bytes" in capsys.readouterr().err


def test_token_create_refuses_a_bad_ttl(env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["token", "create", "--owner", "ops", "--ttl", "soon"]) == 2
    assert "--ttl: 'soon' is not a duration like 30m, 1h or 7d" in capsys.readouterr().err
