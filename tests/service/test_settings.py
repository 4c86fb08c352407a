"""Settings refuse unsafe secrets outside dev mode, say how to fix it, and never show them."""

from __future__ import annotations

import logging

import pytest

import judge.settings as settings_module
from judge.errors import ConfigError
from judge.settings import DEV_SECRET, Settings, get_settings, load_settings

GOOD = "a-real-secret-of-at-least-thirty-two-bytes!"


@pytest.mark.parametrize("secret", ["", "changethis", "secret", DEV_SECRET])
def test_empty_or_well_known_secrets_are_refused(secret: str) -> None:
    with pytest.raises(ConfigError, match="JUDGE_JWT_SECRET is empty or a well-known value; set JUDGE_JWT_SECRET"):
        load_settings(jwt_secret=secret)


def test_a_short_secret_is_refused_with_the_fix() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(jwt_secret="x" * 31)

    assert "JUDGE_JWT_SECRET is shorter than 32 bytes" in str(caught.value)
    assert "secrets.token_urlsafe(48)" in str(caught.value) and "JUDGE_DEV_MODE=1" in str(caught.value)


def test_dev_mode_runs_on_the_dev_secret_and_says_so(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings_module, "_announced", [])
    with caplog.at_level(logging.WARNING, logger="judge.settings"):
        settings = load_settings(dev_mode=True)

    assert settings.signing_secret == DEV_SECRET
    assert "JUDGE IS RUNNING IN DEV MODE" in caplog.text


def test_secrets_never_appear_in_reprs_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        settings = load_settings(jwt_secret=GOOD)

    assert GOOD not in repr(settings) and GOOD not in str(settings.model_dump()) and GOOD not in caplog.text
    assert settings.signing_secret == GOOD


def test_settings_come_from_judge_environment_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_JWT_SECRET", GOOD)
    monkeypatch.setenv("JUDGE_DATABASE_URL", "postgresql://judge@db/judge")
    monkeypatch.setenv("JUDGE_WORKERS", "3")
    monkeypatch.setenv("JUDGE_MODEL", "openai/gpt-4o-mini")
    get_settings.cache_clear()
    try:
        settings = get_settings()
    finally:
        get_settings.cache_clear()

    assert (settings.database_url, settings.workers, settings.model) == ("postgresql://judge@db/judge", 3, "openai/gpt-4o-mini")
    assert (settings.jwt_audience, settings.dev_mode) == ("judge", False)


def test_defaults_are_sqlite_and_the_embedded_judge() -> None:
    settings = Settings(jwt_secret=GOOD)  # type: ignore[arg-type]

    assert settings.database_url == "sqlite:///./judge.db"
    assert settings.model == "embedded/smollm2-135m-instruct"


def test_a_stall_timeout_shorter_than_two_heartbeats_is_refused() -> None:
    with pytest.raises(ConfigError, match="JUDGE_STALLED_AFTER_S must be at least twice JUDGE_HEARTBEAT_S"):
        load_settings(dev_mode=True, heartbeat_s=10, stalled_after_s=15)
    assert load_settings(dev_mode=True, heartbeat_s=1, stalled_after_s=3).stalled_after_s == 3
