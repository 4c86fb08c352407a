"""The service under load, as a real HTTP server on loopback (uvicorn) with a real client:
64 concurrent agent submissions and 64 concurrent scorecard reads, on each store, and no 5xx.

Each request holds at most one database connection at a time (the key lookup uses a short
session of its own), so a burst larger than the connection pool waits its turn instead of
deadlocking on the pool. The submit routes authenticate before they read the body.
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import Engine

from judge.server.api.routers import runs as runs_router
from judge.server.service.keys import issue_key
from judge.server.store.db import POOL_OVERFLOW, POOL_SIZE, transaction
from tests.conftest import example, owner_headers

BURST = 64


def _agent_run(n: int, agent_id: str) -> dict[str, Any]:
    seats = [
        {"seat": "buyer", "agent_id": agent_id, "scored": True},
        {"seat": "seller", "agent_id": "house-adversary", "scored": False},
    ]
    return example("haggle", run_id=f"burst-{n}", seats=seats)


async def _burst(
    base: str, keys: list[dict[str, str]], owner: dict[str, str]
) -> list[tuple[str, int]]:
    limits = httpx.Limits(max_connections=2 * BURST, max_keepalive_connections=2 * BURST)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        posts = [
            client.post("/api/agent/runs", json=_agent_run(n, f"agent-{n}"), headers=keys[n])
            for n in range(BURST)
        ]
        reads = [client.get("/api/evals/seed-run/scorecard", headers=owner) for _ in range(BURST)]
        answers = await asyncio.gather(*posts, *reads)
    return [("post" if i < BURST else "read", a.status_code) for i, a in enumerate(answers)]


def test_64_submissions_and_64_scorecard_reads_at_once_answer_without_a_5xx(
    base_url: str, engine: Engine
) -> None:
    assert BURST > POOL_SIZE + POOL_OVERFLOW  # more requests at once than connections
    owner = owner_headers()
    assert (
        httpx.post(
            f"{base_url}/api/evals/runs", json=example("haggle", run_id="seed-run"), headers=owner
        ).status_code
        == 202
    )
    deadline = time.monotonic() + 60
    while (
        httpx.get(f"{base_url}/api/evals/runs/seed-run", headers=owner).json()["status"] != "scored"
    ):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    with transaction(engine) as session:
        keys = [
            {"Authorization": f"Bearer {issue_key(session, agent_id=f'agent-{n}', seat='buyer')}"}
            for n in range(BURST)
        ]

    started = time.monotonic()
    answers = asyncio.run(_burst(base_url, keys, owner))
    elapsed = time.monotonic() - started

    assert [a for a in answers if a[1] >= 500] == []
    assert sorted({a for a in answers}) == [("post", 202), ("read", 200)]
    assert elapsed < 60, f"the burst took {elapsed:.1f}s"
    print(f"\n{2 * BURST} requests answered in {elapsed:.2f}s")


def test_an_unauthenticated_submission_is_refused_before_its_body_is_read(base_url: str) -> None:
    """Headers announcing a 50 MB body, and no body at all: the 401 must come without waiting for it."""
    port = int(base_url.rsplit(":", 1)[1])
    head = (
        "POST /api/agent/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {50 * 1024 * 1024}\r\nAuthorization: Bearer sk_live_forged\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(head.encode())
        started = time.monotonic()
        reply = sock.recv(4096).decode(errors="replace")
    assert reply.startswith("HTTP/1.1 401"), reply[:200]
    assert time.monotonic() - started < 5


def test_a_run_body_is_validated_off_the_event_loop(
    client: Any, owner: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    validate = runs_router.parse_run

    def spy(raw: bytes) -> Any:
        try:
            asyncio.get_running_loop()
            seen.append(True)
        except RuntimeError:  # no event loop in this thread: a worker thread
            seen.append(False)
        return validate(raw)

    monkeypatch.setattr(runs_router, "parse_run", spy)

    assert client.post("/api/evals/runs", json=example("haggle"), headers=owner).status_code == 202
    assert client.post("/api/evals/runs", json={"run_id": "x"}, headers=owner).status_code == 422
    assert seen == [False, False]
