"""A hostile run posted with an agent key, on SQLite and PostgreSQL (docs/integrity.md, "Where
the scan runs"): while it is scanned and scored the API keeps answering (the scan never runs
on the API's event loop), and past its CPU budget the run is held as unscannable for owners,
never judged, while its agent reads only that it is held."""

from __future__ import annotations

import random
import statistics
import string
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.scoring.run_summary import UNSCANNABLE_REASON
from judge.engine.judging.backends import ScriptedBackend
from judge.server.web import create_app
from tests.conftest import VERDICT, example, key_headers, owner_headers, service_settings
from tests.pg import free_port

#: The scan's known weak shape (docs/integrity.md): random words, many of them cue words, so
#: every rule reads all of it; messages at the API's text bound, the body under its 4 MiB.
CUES = ("judge", "score", "rubric", "ignore", "evaluator", "grader", "rating", "instructions")
MESSAGES, CHARS = 18, 190_000
HEALTH_LIMIT_S = 0.1


def hostile_run(run_id: str) -> dict[str, Any]:
    rng = random.Random(11)
    data = example("haggle", run_id=run_id)

    def text() -> str:
        words: list[str] = []
        size = 0
        while size < CHARS:
            word = (
                rng.choice(CUES)
                if rng.random() < 0.3
                else "".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 9)))
            )
            words.append(word)
            size += len(word) + 1
        return " ".join(words)[:CHARS]

    hostile = [
        {"kind": "message", "turn": 20 + n, "seat": "buyer", "content": text()}
        for n in range(MESSAGES)
    ]
    return {**data, "transcript": [*data["transcript"], *hostile]}


def status(client: httpx.Client | TestClient, run_id: str) -> str:
    answer = client.get(f"/api/evals/runs/{run_id}", headers=owner_headers())
    return str(answer.json()["status"])


@pytest.fixture
def served(database_url: str) -> Iterator[tuple[str, ScriptedBackend]]:
    """The app under uvicorn on a loopback port (a real event loop and socket), its judge."""
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    app = create_app(service_settings(database_url), backends=lambda model: judge)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{server.config.port}", judge
    server.should_exit = True
    thread.join(30)


def test_health_answers_fast_while_a_hostile_run_is_scanned(
    served: tuple[str, ScriptedBackend], engine: Engine
) -> None:
    base_url, judge = served
    body = hostile_run("hostile-1")
    agent = key_headers(engine, "agent-alpha", "buyer")
    with httpx.Client(base_url=base_url, timeout=30) as client:
        accepted = client.post("/api/agent/runs", json=body, headers=agent)
        assert accepted.status_code == 202, accepted.text
        run_id = accepted.json()["run_id"]
        latencies = []
        deadline = time.monotonic() + 120
        while status(client, run_id) in ("queued", "scoring"):
            assert time.monotonic() < deadline, "the hostile run was never scored"
            started = time.perf_counter()
            assert client.get("/api/health").status_code == 200
            latencies.append(time.perf_counter() - started)
            time.sleep(0.1)
        final = status(client, run_id)
    print(f"/api/health while scanning: {[round(s * 1000, 1) for s in latencies]} ms")
    assert final == "scored" and judge.history  # scanned within its budget, then judged
    assert len(latencies) >= 3, "the run was scored before the health checks could be made"
    assert statistics.median(latencies) < HEALTH_LIMIT_S
    assert max(latencies) < 10 * HEALTH_LIMIT_S  # a loaded CI core may delay one; none stalls


def test_a_run_past_its_scan_budget_is_held_as_unscannable_and_never_judged(
    database_url: str, engine: Engine
) -> None:
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    settings = service_settings(database_url).model_copy(update={"scan_cpu_s": 0.05})
    owner, agent = owner_headers(), key_headers(engine, "agent-alpha", "buyer")
    with TestClient(create_app(settings, backends=lambda model: judge)) as client:
        accepted = client.post("/api/agent/runs", json=hostile_run("hostile-2"), headers=agent)
        assert accepted.status_code == 202, accepted.text
        run_id = accepted.json()["run_id"]
        deadline = time.monotonic() + 120
        while status(client, run_id) in ("queued", "scoring"):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert status(client, run_id) == "scored"
        assert judge.history == []  # no judge call for an unscannable run

        review = client.get(f"/api/evals/{run_id}/safety-review", headers=owner).json()
        assert review["held_for_review"] and review["reasons"] == [UNSCANNABLE_REASON]
        queue = client.get("/api/evals/safety-review", headers=owner).json()
        [entry] = [e for e in queue if e["run_id"] == run_id]
        assert entry["reasons"] == [UNSCANNABLE_REASON]
        card = client.get(f"/api/evals/{run_id}/scorecard", headers=owner).json()
        assert card["seats"]["buyer"]["tamper"]["unscannable"] is True

        mine = client.get(f"/api/agent/runs/{run_id}/scorecard", headers=agent)
        assert mine.status_code == 200 and mine.json()["held_for_review"] is True
        assert "unscannable" not in mine.text and "tamper" not in mine.text
