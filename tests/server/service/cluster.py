"""Real processes for the scale-out tests: `judge serve` and `judge worker` on one
PostgreSQL database, judging as `openai/fake-judge` on the fake OpenAI-compatible judge."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from judge.engine.settings import DEV_SECRET
from judge.server.auth import create_owner_token
from tests.pg import free_port

ROOT = Path(__file__).resolve().parents[3]
TOKEN = create_owner_token(owner="ops", secret=DEV_SECRET, audience="judge", ttl=timedelta(hours=1))
OWNER = {"Authorization": f"Bearer {TOKEN}"}
TRAITS = ["negotiation", "integrity"]
#: The platform's floor of passes per trait (judge.core.domain.config.MIN_PASSES_FLOOR).
PASSES = 5


#: Short liveness timings for tests that kill or cut off workers (a stall timeout too close to
#: the heartbeat takes a CPU-starved worker for dead; the fence then stops it, at the price of
#: a few repeated calls, so tests that count calls exactly keep the defaults).
FAST_STALL = {"JUDGE_HEARTBEAT_S": "1", "JUDGE_STALLED_AFTER_S": "6"}


def service_env(database_url: str, api_base: str, **extra: str) -> dict[str, str]:
    """Environment of every node: dev mode (public dev secret), the fake judge as `openai/fake-judge`."""
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "JUDGE_DEV_MODE": "1",
        "JUDGE_DATABASE_URL": database_url,
        "JUDGE_MODEL": "openai/fake-judge",
        "OPENAI_API_BASE": api_base,
        "OPENAI_API_KEY": "sk-fake",
        "JUDGE_CONCURRENCY": "4",
        "JUDGE_BACKOFF_INITIAL_S": "0.2",
        **extra,
    }


@dataclass
class Cluster:
    """The processes of one test; every one is killed at the end, whatever happened."""

    env: dict[str, str]
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def _spawn(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.logs / f"{name}.log").open("ab")
        command = [sys.executable, "-m", "judge", *args]
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        self.processes.append(process)
        return process

    def serve(self, *, workers: int = 0) -> str:
        """Start `judge serve --workers N` and return its base URL once it answers."""
        port = free_port()
        self._spawn(
            f"serve-{port}",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        )
        return f"http://127.0.0.1:{port}"

    def worker(self, *, concurrency: int = 4) -> subprocess.Popen[bytes]:
        return self._spawn(
            f"worker-{len(self.processes)}",
            "worker",
            "--concurrency",
            str(concurrency),
            "--log-level",
            "warning",
        )

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


@contextmanager
def cluster(env: dict[str, str], logs: Path) -> Iterator[Cluster]:
    running = Cluster(env, logs)
    try:
        yield running
    finally:
        running.stop()


def until(check: Callable[[], Any], timeout: float, what: str, every: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if value := check():
                return value
        except (httpx.TransportError, sa.exc.OperationalError):
            pass
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def healthy(base: str, timeout: float = 90) -> None:
    until(
        lambda: httpx.get(f"{base}/api/health", timeout=2).status_code == 200,
        timeout,
        f"{base} to answer",
    )


def status_counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text("SELECT status, count(*) FROM runs GROUP BY status")
        ).all()
    return {str(status): int(n) for status, n in rows}


def count(engine: Engine, statement: str) -> int:
    with engine.connect() as connection:
        return int(connection.execute(sa.text(statement)).scalar() or 0)


def all_final(engine: Engine, runs: int) -> bool:
    counts = status_counts(engine)
    return counts.get("scored", 0) + counts.get("not_scored", 0) == runs
