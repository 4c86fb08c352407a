"""Store faults while runs score: a lock held for a while, a full disk, an internal error.

A transient fault is waited out (writes retried with backoff) and never turns a run into
``not_scored`` or drops a paid pass; a full store answers 503 with the JSON error body and
the process stays up and resumes by itself; reasons shown to agents carry no internals.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.server.service import jobs
from judge.server.store import db as store_db
from judge.server.store import passes as pass_repo
from judge.server.web import create_app
from tests.conftest import (
    PASSES_PER_SEAT,
    VERDICT,
    example,
    key_headers,
    owner_headers,
    service_settings,
    wait_final,
)
from tests.pg import free_port
from tests.server.service.test_restart import OWNER, _start, _until

LOCK_AFTER_CALLS, LOCK_HELD_S = 5, 2.0


def hold_lock(database_url: str, seconds: float) -> None:
    """Hold the store's write lock for ``seconds`` from another connection (not the service's)."""
    if database_url.startswith("sqlite"):
        conn = sqlite3.connect(
            database_url.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False
        )
        conn.execute("BEGIN EXCLUSIVE")
    else:
        conn = psycopg.connect(database_url.replace("postgresql+psycopg://", "postgresql://"))  # type: ignore[assignment]
        conn.execute("LOCK TABLE passes IN EXCLUSIVE MODE")

    def release() -> None:
        conn.commit() if not isinstance(conn, sqlite3.Connection) else conn.execute("COMMIT")
        conn.close()

    threading.Timer(seconds, release).start()


@pytest.fixture
def locking_judge(database_url: str) -> ScriptedBackend:
    calls: list[int] = []

    def answer(_request: JudgeRequest) -> str:
        calls.append(1)
        if len(calls) == LOCK_AFTER_CALLS:
            hold_lock(database_url, LOCK_HELD_S)
        return VERDICT

    return ScriptedBackend(answer, model="scripted-test-judge")  # type: ignore[arg-type]


@pytest.fixture
def impatient_client(
    database_url: str, locking_judge: ScriptedBackend, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    """The service with a 100 ms SQLite busy timeout, so the lock is met, not waited out."""
    monkeypatch.setattr(store_db, "SQLITE_BUSY_TIMEOUT_MS", 100)
    settings = service_settings(database_url).model_copy(update={"store_retry_s": 30.0})
    with TestClient(create_app(settings, backends=lambda model: locking_judge)) as client:
        yield client


def test_a_store_lock_held_while_a_run_scores_is_waited_out_and_no_paid_pass_is_lost(
    impatient_client: TestClient, locking_judge: ScriptedBackend, engine: Engine
) -> None:
    assert (
        impatient_client.post(
            "/api/evals/runs", json=example("haggle"), headers=owner_headers()
        ).status_code
        == 202
    )
    final = _poll_through_503(impatient_client, "haggle-0007")

    assert final["status"] == "scored", final["reason"]
    assert final["passes_done"] == PASSES_PER_SEAT
    assert (
        len(locking_judge.history) == PASSES_PER_SEAT
    )  # every paid pass stored once, none judged again


def _poll_through_503(client: TestClient, run_id: str, timeout: float = 60.0) -> dict[str, Any]:
    """Poll the owner status until final; while the lock is held, reads may answer 503."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(f"/api/evals/runs/{run_id}", headers=owner_headers())
        assert answer.status_code in (200, 503), answer.text
        if answer.status_code == 200 and answer.json()["status"] in ("scored", "not_scored"):
            body: dict[str, Any] = answer.json()
            return body
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} not final after {timeout}s")


@pytest.fixture
def plain_client(database_url: str) -> Iterator[TestClient]:
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    with TestClient(
        create_app(service_settings(database_url), backends=lambda model: judge)
    ) as client:
        yield client


def test_a_reason_shown_to_an_agent_carries_no_internals(
    plain_client: TestClient, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise sa.exc.IntegrityError(
            "INSERT INTO passes (run_id, seat) VALUES (?, ?)",
            ("agent-alpha:haggle-0007", "buyer"),
            Exception("boom"),
        )

    monkeypatch.setattr(pass_repo, "insert_pass", broken)
    alpha = key_headers(engine, "agent-alpha", "buyer")
    assert (
        plain_client.post("/api/agent/runs", json=example("haggle"), headers=alpha).status_code
        == 202
    )
    wait_final(plain_client, "agent-alpha:haggle-0007", owner_headers())

    agent_view = plain_client.get("/api/agent/runs/agent-alpha:haggle-0007", headers=alpha)
    owner_view = plain_client.get(
        "/api/evals/runs/agent-alpha:haggle-0007", headers=owner_headers()
    ).json()
    card = plain_client.get("/api/agent/runs/agent-alpha:haggle-0007/scorecard", headers=alpha)

    assert agent_view.json()["reason"] == jobs.INTERNAL
    for text in (agent_view.text, card.text):
        assert "INSERT" not in text and "IntegrityError" not in text and "VALUES" not in text
    assert owner_view["reason"].startswith(jobs.INTERNAL + ": IntegrityError: ")


# a full disk, on a real process ----------------------------------------------------------


def _full_disk(pid: int, full: bool) -> None:
    """Disk full, honestly simulated: the process's file-size limit (RLIMIT_FSIZE) drops to
    4 KiB, so every write past that offset fails in the kernel (EFBIG: SQLite reports a disk
    I/O error), exactly where a full disk would fail it; the hard limit stays open, so the
    soft limit can be raised back while the process runs."""
    soft = 4096 if full else resource.RLIM_INFINITY
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, resource.RLIM_INFINITY))


def _read_only(path: Path, read_only: bool) -> None:
    """A read-only store, honestly: the database file made immutable (chattr +i), so the
    kernel refuses every write to it, even through descriptors already open (as after a
    filesystem is remounted read-only). With SQLite's WAL this killed the process (SIGBUS)."""
    for file in path.parent.glob(path.name + "*"):
        subprocess.run(
            ["chattr", "+i" if read_only else "-i", str(file)], check=True, capture_output=True
        )


def _immutable_supported(directory: Path) -> bool:
    probe = directory / "probe"
    probe.touch()
    works = (
        subprocess.run(["chattr", "+i", str(probe)], capture_output=True, check=False).returncode
        == 0
    )
    subprocess.run(["chattr", "-i", str(probe)], capture_output=True, check=False)
    return works


@pytest.mark.parametrize("fault", ["disk_full", "read_only"])
def test_a_store_fault_answers_503_keeps_the_process_up_and_scoring_resumes_by_itself(
    tmp_path: Path, fault: str
) -> None:
    if fault == "read_only" and (
        shutil.which("chattr") is None or not _immutable_supported(tmp_path)
    ):
        pytest.skip("chattr +i needs root on a filesystem with immutable files")
    path, port = tmp_path / "judge.db", free_port()
    base = f"http://127.0.0.1:{port}"
    os.environ.update(JUDGE_STORE_RETRY_S="1", JUDGE_STORE_SWEEP_S="1")
    try:
        service = _start(f"sqlite:///{path}", port, tmp_path / "calls.log", delay=0.2)
    finally:
        del os.environ["JUDGE_STORE_RETRY_S"], os.environ["JUDGE_STORE_SWEEP_S"]

    def set_fault(on: bool) -> None:
        _full_disk(service.pid, on) if fault == "disk_full" else _read_only(path, on)

    try:
        _until(lambda: httpx.get(f"{base}/api/health", timeout=1).status_code == 200, 60, "start")
        assert (
            httpx.post(f"{base}/api/evals/runs", json=example("haggle"), headers=OWNER).status_code
            == 202
        )
        _until(lambda: _status_of(base, "haggle-0007")["passes_done"] >= 4, 60, "some passes")
        set_fault(True)
        try:
            refused = httpx.post(
                f"{base}/api/evals/runs",
                json=example("haggle", run_id="later"),
                headers=OWNER,
                timeout=60,
            )
            time.sleep(2)  # scoring meets the fault meanwhile
            alive = service.poll()
        finally:
            set_fault(False)
        final = _until(
            lambda: (
                (s := _status_of(base, "haggle-0007"))["status"] in ("scored", "not_scored") and s
            ),
            60,
            "scoring to resume",
        )
        again = httpx.post(
            f"{base}/api/evals/runs", json=example("haggle", run_id="later"), headers=OWNER
        )
    finally:
        service.send_signal(signal.SIGTERM)
        service.wait(30)

    assert alive is None  # no SIGBUS, no crash
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert json.loads(refused.text) == {
        "code": "store_unavailable",
        "detail": "the store is busy or not writable at the moment; nothing was changed: try again shortly",
    }
    assert (final["status"], final["passes_done"]) == ("scored", PASSES_PER_SEAT)
    assert again.status_code == 202


def _status_of(base: str, run_id: str) -> dict[str, Any]:
    """The owner status; a store fault may make a read answer 503, which counts as no progress."""
    answer = httpx.get(f"{base}/api/evals/runs/{run_id}", headers=OWNER, timeout=10)
    body: dict[str, Any] = (
        answer.json() if answer.status_code == 200 else {"status": "unknown", "passes_done": -1}
    )
    return body
