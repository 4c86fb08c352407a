"""Settings refuse unsafe secrets outside dev mode, say how to fix it, and never show them."""

from __future__ import annotations

import ast
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

import judge.engine.settings as settings_module
from judge.core.errors import ConfigError
from judge.engine.settings import DEV_SECRET, Settings, get_settings, load_settings

GOOD = "a-real-secret-of-at-least-thirty-two-bytes!"


@pytest.mark.parametrize("secret", ["", "changethis", "secret", DEV_SECRET])
def test_empty_or_well_known_secrets_are_refused(secret: str) -> None:
    with pytest.raises(
        ConfigError, match="JUDGE_JWT_SECRET is empty or a well-known value; set JUDGE_JWT_SECRET"
    ):
        load_settings(jwt_secret=secret)


def test_a_short_secret_is_refused_with_the_fix() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(jwt_secret="x" * 31)

    assert "JUDGE_JWT_SECRET is shorter than 32 bytes" in str(caught.value)
    assert "secrets.token_urlsafe(48)" in str(caught.value) and "JUDGE_DEV_MODE=1" in str(
        caught.value
    )


def test_dev_mode_runs_on_the_dev_secret_and_says_so(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings_module, "_announced", [])
    with caplog.at_level(logging.WARNING, logger="judge.engine.settings"):
        settings = load_settings(dev_mode=True)

    assert settings.signing_secret == DEV_SECRET
    assert "JUDGE IS RUNNING IN DEV MODE" in caplog.text


def test_secrets_never_appear_in_reprs_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        settings = load_settings(jwt_secret=GOOD)

    assert (
        GOOD not in repr(settings)
        and GOOD not in str(settings.model_dump())
        and GOOD not in caplog.text
    )
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

    assert (settings.database_url, settings.workers, settings.model) == (
        "postgresql://judge@db/judge",
        3,
        "openai/gpt-4o-mini",
    )
    assert (settings.jwt_audience, settings.dev_mode) == ("judge", False)


def test_defaults_are_sqlite_and_the_embedded_judge() -> None:
    settings = Settings(jwt_secret=GOOD)  # type: ignore[arg-type]

    assert settings.database_url == "sqlite:///./judge.db"
    assert settings.model == "embedded/smollm2-135m-instruct"


@pytest.mark.parametrize(
    ("secret", "problem"),
    [
        ("a" * 32, "has fewer than 12 different characters"),
        ("password" * 4, "has fewer than 12 different characters"),
        ("abcdefghijklmnop" * 2, "is a 16-character piece repeated"),
        ("Tr0ub4dor&3xyzQ" * 3, "is a 15-character piece repeated"),
    ],
)
def test_long_but_guessable_secrets_are_refused(secret: str, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(jwt_secret=secret)
    assert f"JUDGE_JWT_SECRET {problem}; set JUDGE_JWT_SECRET" in str(caught.value)
    assert secret not in str(caught.value)


def test_a_random_secret_passes_the_strength_rules() -> None:
    import secrets

    assert all(
        settings_module.secret_weakness(secrets.token_urlsafe(48)) is None for _ in range(50)
    )


def test_a_test_only_judge_is_refused_at_start_without_dev_mode() -> None:
    with pytest.raises(ConfigError, match="JUDGE_MODEL 'scripted/0.7' is a test-only judge"):
        load_settings(jwt_secret=GOOD, model="scripted/0.7")
    assert load_settings(dev_mode=True, model="scripted/0.7").model == "scripted/0.7"


def test_request_limit_settings_have_documented_defaults() -> None:
    limits = load_settings(jwt_secret=GOOD).request_limits
    assert limits._asdict() == {
        "max_body_bytes": 4 * 1024 * 1024,
        "max_json_depth": 32,
        "max_text_chars": 200_000,
        "max_array_items": 10_000,
        "max_events": 10_000,
        "max_win_conditions": 1_000,
        "max_trace_steps": 10_000,
        "max_seats": 64,
    }


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_non_finite_numbers_in_settings_are_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("JUDGE_BACKOFF_INITIAL_S", value)
    with pytest.raises(ConfigError, match="backoff_initial_s: Input should be a finite number"):
        load_settings(jwt_secret=GOOD)


def test_a_stall_timeout_shorter_than_two_heartbeats_is_refused() -> None:
    with pytest.raises(
        ConfigError, match="JUDGE_STALLED_AFTER_S must be at least twice JUDGE_HEARTBEAT_S"
    ):
        load_settings(dev_mode=True, heartbeat_s=10, stalled_after_s=15)
    assert load_settings(dev_mode=True, heartbeat_s=1, stalled_after_s=3).stalled_after_s == 3


@pytest.mark.parametrize("token", ["a", "x" * 40, "scrape" * 8])
def test_a_weak_metrics_token_is_refused_outside_dev_mode(token: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(jwt_secret=GOOD, metrics_token=token)

    assert "JUDGE_METRICS_TOKEN" in str(caught.value)


def test_a_strong_metrics_token_is_accepted() -> None:
    token = "k3Jq9-Xv2Lm8Rt5Wp1Zs7Nb4Hd6Fy0Gc"
    settings = load_settings(jwt_secret=GOOD, metrics_token=token)

    assert settings.metrics_token is not None
    assert settings.metrics_token.get_secret_value() == token


def test_dev_mode_takes_any_metrics_token() -> None:
    assert load_settings(dev_mode=True, metrics_token="a").metrics_token is not None


#: The places that may touch ``os.environ`` outside the settings, and why; neither reads a
#: setting, both point a library at files it would otherwise fetch over the network. litellm
#: reads ``LITELLM_LOCAL_MODEL_COST_MAP`` when it is imported, so the provider that imports it
#: sets that variable first; tiktoken reads ``TIKTOKEN_CACHE_DIR`` when an encoding is first
#: loaded, so the cost estimate points it at litellm's bundled tokenizer files first.
ENVIRONMENT_WRITERS = {
    "judge/engine/judging/providers/litellm_loader.py": 1,
    "judge/engine/judging/pricing.py": 1,
}


def _environment_uses(path: Path) -> int:
    """How many times a module names ``os.environ``, ``os.getenv`` or imports them by name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in {"environ", "getenv", "environb"}:
            count += isinstance(node.value, ast.Name) and node.value.id == "os"
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            count += sum(a.name in {"environ", "getenv", "environb"} for a in node.names)
    return count


def test_no_module_but_the_settings_reads_the_environment() -> None:
    settings_file = Path(settings_module.__file__)
    package = settings_file.parents[1]
    found = {
        str(path.relative_to(package.parent)): uses
        for path in sorted(package.rglob("*.py"))
        if path != settings_file and (uses := _environment_uses(path))
    }
    assert found == ENVIRONMENT_WRITERS


def test_the_scan_sees_each_way_of_reading_the_environment(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import os\nfrom os import environ, getenv\n"
        "a = os.environ.get('X')\nb = os.getenv('Y')\nc = 'Z' in os.environ\n"
    )
    assert _environment_uses(module) == 5


def test_importing_every_module_of_the_package_leaves_the_environment_unchanged() -> None:
    """Every module but the entry point and the Alembic scripts (run by Alembic, not imported)."""
    script = (
        "import os, pkgutil, importlib, json, sys\n"
        "before = dict(os.environ)\n"
        "import judge\n"
        "names = [m.name for m in pkgutil.walk_packages(judge.__path__, 'judge.')\n"
        "         if m.name != 'judge.__main__' and '.migrations' not in m.name]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "changed = sorted(k for k in set(before) | set(os.environ)"
        " if before.get(k) != os.environ.get(k))\n"
        "print(json.dumps({'modules': len(names), 'changed': changed}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["modules"] > 150
    assert result["changed"] == []


def test_the_providers_settings_are_read_here_and_handed_down(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("JUDGE_EMBEDDED_GGUF", str(tmp_path / "w.gguf"))
    monkeypatch.setenv("JUDGE_EMBEDDED_THREADS", "3")
    monkeypatch.setenv("JUDGE_TEST_JUDGE_DELAY", "0.25")
    monkeypatch.setenv("JUDGE_TEST_JUDGE_LOG", "")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9000/v1")
    monkeypatch.setenv("JUDGE_OPENAI_CLIENT", "litellm")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    monkeypatch.setenv("VLLM_KEY", "v-secret")
    env = settings_module.judging_environment(dev_mode=True)
    assert (env.openai_api_base, env.openai_client) == ("http://127.0.0.1:9000/v1", "litellm")
    assert env.dev_mode is True
    assert env.embedded_gguf == tmp_path / "w.gguf" and env.embedded_threads == 3
    assert env.test_judge_delay_s == 0.25 and env.test_judge_log is None
    assert env.openai_base_url == "http://127.0.0.1:8000/v1" and env.openai_api_key == "sk-local"
    assert env.secret("VLLM_KEY") == "v-secret"
    assert "sk-local" not in repr(env)


def test_a_malformed_provider_setting_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_EMBEDDED_THREADS", "many")
    with pytest.raises(ConfigError, match="embedded_threads"):
        settings_module.judging_environment()


def test_data_folders_and_debug_come_from_the_process_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from judge.engine.calibration.manifest import shared_data_dir
    from judge.engine.packs import data_dir

    monkeypatch.setenv("JUDGE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("JUDGE_SHARED_DATA", str(tmp_path / "shared"))
    monkeypatch.setenv("JUDGE_DEBUG", "0")
    assert data_dir() == tmp_path / "data"
    assert shared_data_dir() == tmp_path / "shared"
    assert settings_module.process_settings().debug_on is False
    monkeypatch.setenv("JUDGE_DEBUG", "yes")
    assert settings_module.process_settings().debug_on is True
