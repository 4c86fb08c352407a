"""`judge serve` refuses to start unsafely: dev mode only on loopback, no test-only judge
without dev mode, both with a clear message and a non-zero exit before anything listens."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from judge.cli.serve import check_bind, is_loopback
from judge.errors import ConfigError


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.1", "localhost", "::1", "[::1]"])
def test_loopback_hosts_are_recognised(host: str) -> None:
    assert is_loopback(host)
    check_bind(host, dev_mode=True)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "10.0.0.5", "example.org", ""])
def test_dev_mode_refuses_every_other_host(host: str) -> None:
    assert not is_loopback(host)
    with pytest.raises(ConfigError, match="dev mode .* only listens on a loopback address"):
        check_bind(host, dev_mode=True)
    check_bind(host, dev_mode=False)


SECRET = "a-real-secret-of-at-least-thirty-two-bytes!"


def _serve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_", "OPENAI_"))}
    return subprocess.run(
        [sys.executable, "-m", "judge", "serve", "--port", "1", *args],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_judge_serve_in_dev_mode_on_all_interfaces_exits_with_a_clear_message() -> None:
    done = _serve({"JUDGE_DEV_MODE": "1"}, "--host", "0.0.0.0")
    assert done.returncode == 2
    assert "judge: error: --host 0.0.0.0: dev mode (JUDGE_DEV_MODE=1)" in done.stderr
    assert "Uvicorn running" not in done.stderr


def test_judge_serve_with_a_test_only_judge_outside_dev_mode_exits_at_start() -> None:
    done = _serve(
        {
            "JUDGE_JWT_SECRET": "a-real-secret-of-at-least-thirty-two-bytes!",
            "JUDGE_MODEL": "scripted/0.7",
        }
    )
    assert done.returncode == 2
    assert "JUDGE_MODEL 'scripted/0.7' is a test-only judge" in done.stderr


def test_judge_serve_refuses_a_judge_model_litellm_knows_no_provider_for() -> None:
    done = _serve({"JUDGE_JWT_SECRET": SECRET, "JUDGE_MODEL": "gpt-4o-mni"})

    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line == (
        "judge: error: JUDGE_MODEL 'gpt-4o-mni': litellm knows no provider for it; "
        "name one as provider/model, e.g. openai/gpt-4o-mini"
    )


def test_judge_serve_refuses_a_judge_model_whose_key_is_not_set() -> None:
    done = _serve({"JUDGE_JWT_SECRET": SECRET, "JUDGE_MODEL": "openai/gpt-4o-mini"})

    assert done.returncode == 2
    assert done.stderr.strip() == (
        "judge: error: JUDGE_MODEL 'openai/gpt-4o-mini' needs OPENAI_API_KEY, which is not set"
    )
