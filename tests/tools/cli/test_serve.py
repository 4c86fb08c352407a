"""`judge serve` refuses to start unsafely: dev mode only on loopback, no test-only judge
without dev mode, both with a clear message and a non-zero exit before anything listens."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from judge.core.errors import ConfigError
from judge.tools.cli.serve import check_bind, check_processes, is_loopback
from tests.pg import free_port


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


def test_several_processes_on_the_thread_executor_are_refused_before_anything_listens() -> None:
    done = _serve({"JUDGE_JWT_SECRET": SECRET}, "--processes", "2")

    assert done.returncode == 2
    assert "--processes 2: several server processes need the job queue" in done.stderr
    assert "Uvicorn running" not in done.stderr


def test_no_process_is_refused() -> None:
    with pytest.raises(ConfigError, match="--processes 0: give at least 1"):
        check_processes(0, executor="queue")


def _worker_processes(pid: int) -> int:
    """How many spawned server processes ``pid`` has (its threads' children, Linux /proc)."""
    children = [
        c for t in Path(f"/proc/{pid}/task").iterdir() for c in (t / "children").read_text().split()
    ]
    return sum("spawn_main" in Path(f"/proc/{c}/cmdline").read_text() for c in children)


def test_several_processes_serve_one_port_on_the_job_queue(empty_database: str) -> None:
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_", "OPENAI_"))}
    env = {**clean, "JUDGE_JWT_SECRET": SECRET, "JUDGE_DATABASE_URL": empty_database}
    command = [sys.executable, "-m", "judge", "serve", "--port", str(port), "--workers", "0"]
    server = subprocess.Popen([*command, "--processes", "2", "--log-level", "warning"], env=env)
    try:
        answers = _health_answers(f"http://127.0.0.1:{port}/api/health", count=20)
        workers = _worker_processes(server.pid)
    finally:
        server.terminate()
        server.wait(30)

    assert answers == [200] * 20
    assert workers == 2


def _health_answers(url: str, *, count: int, timeout: float = 60.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with httpx.Client() as client:  # one kept-alive connection for every request
                return [client.get(url).status_code for _ in range(count)]
        except httpx.TransportError:
            time.sleep(0.3)
    raise AssertionError("judge serve --processes 2 did not answer")
