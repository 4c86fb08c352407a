"""Kill -9 in the middle of scoring, start again on the same database: the run completes
and no pass that was already stored is judged again.

The service runs as a real process (`python -m judge serve`) in dev mode with the test-only
scripted judge (judge.engine.judging.providers.scripted): each judge call takes a while and appends `<pid> <trait>`
to a log, so the test counts exactly what each process paid for.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy.engine import Engine

from judge.engine.settings import DEV_SECRET
from judge.server.auth import create_owner_token
from judge.server.service.scoring import MAX_SCORING_STARTS
from judge.server.store import passes as pass_repo
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from tests.conftest import PASSES_PER_SEAT, example
from tests.pg import free_port

ROOT = Path(__file__).resolve().parents[3]
TOKEN = create_owner_token(owner="ops", secret=DEV_SECRET, audience="judge", ttl=timedelta(hours=1))
OWNER = {"Authorization": f"Bearer {TOKEN}"}


def _start(database_url: str, port: int, log: Path, delay: float = 0.1) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "JUDGE_DEV_MODE": "1",
        "JUDGE_DATABASE_URL": database_url,
        "JUDGE_MODEL": "scripted/0.7",
        "JUDGE_TEST_JUDGE_DELAY": str(delay),
        "JUDGE_TEST_JUDGE_LOG": str(log),
        "JUDGE_CONCURRENCY": "2",
        "JUDGE_WORKERS": "1",
        "PYTHONPATH": str(ROOT),
        # on PostgreSQL a killed node's job is retried once its heartbeat is this stale
        "JUDGE_HEARTBEAT_S": "1",
        "JUDGE_STALLED_AFTER_S": "3",
    }
    command = [
        sys.executable,
        "-m",
        "judge",
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if value := check():
                return value
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _status(base: str) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(
        f"{base}/api/evals/runs/haggle-0007", headers=OWNER, timeout=5
    ).json()
    return body


def _calls(log: Path) -> Counter[str]:
    return (
        Counter(line.split()[0] for line in log.read_text().splitlines())
        if log.exists()
        else Counter()
    )


def test_a_killed_service_resumes_the_run_without_rejudging_stored_passes(
    database_url: str, engine: Engine, tmp_path: Path
) -> None:
    log, port = tmp_path / "judge-calls.log", free_port()
    base = f"http://127.0.0.1:{port}"
    first = _start(database_url, port, log)
    try:
        _until(
            lambda: httpx.get(f"{base}/api/health", timeout=1).status_code == 200, 60, "first start"
        )
        assert (
            httpx.post(f"{base}/api/evals/runs", json=example("haggle"), headers=OWNER).status_code
            == 202
        )
        _until(lambda: _status(base)["passes_done"] >= 10, 60, "10 stored passes")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    with transaction(engine) as session:
        stored_before = len(pass_repo.stored_passes(session, run_id="haggle-0007"))
    paid_first = _calls(log)[str(first.pid)]

    second = _start(database_url, port, log)
    try:
        final = _until(
            lambda: (s := _status(base))["status"] in ("scored", "not_scored") and s,
            60,
            "resumed run",
        )
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(10)
    paid_second = _calls(log)[str(second.pid)]

    assert final["status"] == "scored" and final["passes_done"] == PASSES_PER_SEAT
    assert 10 <= stored_before < PASSES_PER_SEAT
    assert paid_second == PASSES_PER_SEAT - stored_before  # nothing already stored was judged again
    assert 0 <= paid_first - stored_before <= 2  # at most the calls in flight at the kill were lost
    with transaction(engine) as session:
        keys = list(pass_repo.stored_passes(session, run_id="haggle-0007"))
    assert len(keys) == len(set(keys)) == PASSES_PER_SEAT


def _progressed(base: str, before: int) -> bool:
    status = _status(base)
    return bool(status["status"] == "scoring" and status["passes_done"] > before)


def test_clean_stops_do_not_count_as_interruptions(
    database_url: str, engine: Engine, tmp_path: Path
) -> None:
    """Six SIGTERM restarts while one run scores (more than the give-up limit of crashes):
    each is a clean shutdown, so the run resumes every time and ends scored."""
    log, port = tmp_path / "judge-calls.log", free_port()
    base = f"http://127.0.0.1:{port}"
    done_before = 0
    for restart in range(MAX_SCORING_STARTS + 1):
        # slow judge calls: on PostgreSQL the job queue lets a running job go on for its
        # shutdown grace (queue.SHUTDOWN_GRACE_S), and six restarts must not finish the run
        service = _start(database_url, port, log, delay=2.0)
        try:
            _until(
                lambda: httpx.get(f"{base}/api/health", timeout=1).status_code == 200, 60, "start"
            )
            if restart == 0:
                assert (
                    httpx.post(
                        f"{base}/api/evals/runs", json=example("haggle"), headers=OWNER
                    ).status_code
                    == 202
                )
            _until(lambda before=done_before: _progressed(base, before), 60, "progress")
            done_before = _status(base)["passes_done"]
        finally:
            service.send_signal(signal.SIGTERM)
            assert service.wait(30) in (
                0,
                -signal.SIGTERM,
            )  # uvicorn re-raises the signal once shut down
    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id="haggle-0007")
        assert row is not None and row.status == "scoring" and run_repo.interrupted_starts(row) == 0
        assert (
            row.scoring_starts == row.clean_stops > 0
        )  # every start counted, every one a clean stop

    final_service = _start(database_url, port, log)
    try:
        final = _until(
            lambda: (s := _status(base))["status"] in ("scored", "not_scored") and s, 90, "final"
        )
    finally:
        final_service.send_signal(signal.SIGTERM)
        final_service.wait(30)

    assert final["status"] == "scored", final["reason"]
    assert final["passes_done"] == PASSES_PER_SEAT


def test_a_crash_still_counts_towards_giving_up(
    database_url: str, engine: Engine, tmp_path: Path
) -> None:
    log, port = tmp_path / "judge-calls.log", free_port()
    base = f"http://127.0.0.1:{port}"
    service = _start(database_url, port, log)
    try:
        _until(lambda: httpx.get(f"{base}/api/health", timeout=1).status_code == 200, 60, "start")
        assert (
            httpx.post(f"{base}/api/evals/runs", json=example("haggle"), headers=OWNER).status_code
            == 202
        )
        _until(lambda: _status(base)["passes_done"] > 0, 60, "progress")
    finally:
        service.send_signal(signal.SIGKILL)
        service.wait(10)

    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id="haggle-0007")
        assert row is not None and row.scoring_starts == 1 and run_repo.interrupted_starts(row) == 1
