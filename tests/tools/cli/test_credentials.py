"""`judge keys create|list|revoke` and `judge token create` over the service's settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from judge.core.errors import AuthError
from judge.engine.settings import get_settings
from judge.server.auth import hash_key, verify_owner_token
from judge.server.service.ingest import authenticate_ingest
from judge.server.store.db import make_engine, transaction
from judge.server.store.ingest_tables import IngestKeyRow
from judge.server.store.migrate import upgrade
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
    assert main(["db", "upgrade"]) == 0  # the store the service would have made
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


def test_keys_create_says_which_store_it_wrote(
    env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "create", "--agent", "agent-alpha", "--seat", "buyer"]) == 0
    written = capsys.readouterr()
    assert written.out.startswith("sk_live_") and written.out.count("\n") == 1
    assert written.err == f"key stored in {env}\n"


def test_keys_create_never_makes_a_store_where_none_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUDGE_DATABASE_URL", raising=False)

    code = main(["keys", "create", "--agent", "agent-alpha", "--seat", "buyer"])

    err = capsys.readouterr().err
    assert code == 2 and list(tmp_path.iterdir()) == []
    assert "no store at sqlite:///./judge.db (judge.db does not exist)" in err
    assert "JUDGE_DATABASE_URL" in err and "judge db upgrade" in err


def test_keys_commands_refuse_an_empty_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    with transaction(make_engine(url)) as session:
        session.connection()  # the file exists, with no table

    assert main(["keys", "list", "--database-url", url]) == 2
    assert f"the store at {url} has no schema" in capsys.readouterr().err


def test_keys_create_writes_the_store_named_by_database_url(
    env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = f"sqlite:///{tmp_path / 'other.db'}"
    upgrade(make_engine(other))

    assert main(["keys", "create", "--agent", "a", "--seat", "s", "--database-url", other]) == 0

    with transaction(make_engine(other)) as session:
        assert len(session.exec(select(AgentKeyRow)).all()) == 1
    with transaction(make_engine(env)) as session:
        assert session.exec(select(AgentKeyRow)).all() == []


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


def test_ingest_keys_create_list_and_revoke_keep_only_the_hash(
    env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest-keys", "create", "--source", "shop", "--label", "prod"]) == 0
    key = capsys.readouterr().out.strip()

    with transaction(make_engine(env)) as session:
        row = session.exec(select(IngestKeyRow)).one()
        assert authenticate_ingest(session, key=key).source == "shop"
    assert key.startswith(f"ik_live_{row.prefix}_") and row.key_sha256 == hash_key(key)
    assert row.created_by == "owner:cli"

    assert main(["ingest-keys", "list"]) == 0
    listed = capsys.readouterr().out
    assert f"ik_live_{row.prefix}_…  source=shop  live  prod" in listed and key not in listed
    assert main(["ingest-keys", "revoke", key]) == 0
    assert capsys.readouterr().out.strip() == f"revoked ik_live_{row.prefix}_…"
    assert main(["ingest-keys", "revoke", row.prefix]) == 1
    with transaction(make_engine(env)) as session, pytest.raises(AuthError):
        authenticate_ingest(session, key=key)


def test_ingest_keys_create_refuses_a_bad_source(
    env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest-keys", "create", "--source", "shop bot"]) != 0
    assert "source: 'shop bot' is not a valid identifier" in capsys.readouterr().err
