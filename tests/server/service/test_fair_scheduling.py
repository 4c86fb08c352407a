"""Fair scheduling on both executors (threads on SQLite, procrastinate on PostgreSQL).

The bound (docs/service.md): with one worker, the platform's run starts at the next free slot
(at most one run, already in flight, ahead of it), and a second agent's single run within the
next two (the flooding agent's oldest waiting run ranks with it and was queued first). One
queue in order of arrival would score them 17th and 16th.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from judge.core.domain.run import parse_run
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.settings import Settings, load_settings
from judge.server.service.fairness import PLATFORM_PRIORITY, FairQueue, priority_for, run_priority
from judge.server.service.intake import canonical_body
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from judge.server.store.tables import RunRow, utcnow
from judge.server.web import create_app
from tests.conftest import SECRET, VERDICT, example, key_headers, owner_headers, wait_final

FLOOD = 15


class GatedJudge(ScriptedBackend):
    """The scripted judge, holding every call until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__(VERDICT, model="scripted-test-judge")
        self.gate = threading.Event()

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        while not self.gate.is_set():
            await asyncio.sleep(0.01)
        return await super().complete(request)


def _store(engine: Engine, run_id: str, submitted_by: str, nth: int) -> None:
    run = parse_run(example("haggle", run_id=run_id))
    body = canonical_body(run)
    with transaction(engine) as session:
        row = run_repo.insert_run(
            session,
            run=run,
            body_json=body.text,
            body_sha256=body.sha256,
            submitted_by=submitted_by,
        )
        row.created_at = utcnow() - timedelta(hours=1) + timedelta(seconds=nth)


def _flood(engine: Engine) -> None:
    """Agent a's 15 runs (its keys all submit as `agent:<id>`), then agent b's one run, then the
    platform's."""
    for n in range(FLOOD):
        _store(engine, f"a-{n:02d}", "agent:agent-a", n)
    _store(engine, "b-00", "agent:agent-b", FLOOD)
    _store(engine, "p-00", "owner:ops", FLOOD + 1)


def _one_worker(database_url: str) -> Settings:
    return load_settings(
        database_url=database_url,
        jwt_secret=SECRET,
        model="scripted-test-judge",
        backoff_initial_s=0.0,
        max_attempts=2,
        workers=1,
    )


def _scoring_order(engine: Engine) -> list[str]:
    with transaction(engine) as session:
        rows = session.exec(select(RunRow.run_id).order_by(col(RunRow.scored_at))).all()
    return list(rows)


def test_a_flood_from_one_agent_waits_behind_the_platform_and_another_agent(
    database_url: str, engine: Engine
) -> None:
    _flood(engine)
    judge = GatedJudge()
    with TestClient(create_app(_one_worker(database_url), backends=lambda m: judge)) as client:
        judge.gate.set()  # the service queued every stored run before its start returned
        for run_id in ("p-00", "b-00", f"a-{FLOOD - 1:02d}"):
            assert wait_final(client, run_id, owner_headers(), timeout=120)["status"] == "scored"
        order = _scoring_order(engine)

    assert len(order) == FLOOD + 2
    assert order.index("p-00") <= 1
    assert order.index("b-00") <= 2
    assert [r for r in order if r.startswith("a-")] == sorted(
        r for r in order if r.startswith("a-")
    )


def test_an_agents_runs_rank_by_how_many_of_its_runs_wait_before_them(engine: Engine) -> None:
    _flood(engine)

    assert run_priority(engine, "a-00") == 0
    assert run_priority(engine, "a-14") == -14
    assert run_priority(engine, "b-00") == 0
    assert run_priority(engine, "p-00") == PLATFORM_PRIORITY


def test_finished_runs_no_longer_count_against_their_agent(engine: Engine) -> None:
    _flood(engine)
    with transaction(engine) as session:
        for n in range(10):
            run_repo.set_run_status(session, run_id=f"a-{n:02d}", status="scored")

    assert run_priority(engine, "a-14") == -4


def test_platform_runs_outrank_any_agent_run() -> None:
    assert priority_for("owner:ops", 50) == PLATFORM_PRIORITY > priority_for("agent:x", 0)
    assert priority_for("service:sweep", 3) == PLATFORM_PRIORITY


def test_the_fair_queue_hands_out_the_highest_priority_first_then_the_oldest() -> None:
    queue = FairQueue()
    for run_id, priority in (("a0", 0), ("a1", -1), ("a2", -2), ("b0", 0), ("p", 1)):
        queue.put(run_id, priority)

    assert [queue.get() for _ in range(5)] == ["p", "a0", "b0", "a1", "a2"]


def test_a_closed_fair_queue_wakes_its_waiting_workers_with_none() -> None:
    queue = FairQueue()
    got: list[str | None] = []
    waiter = threading.Thread(target=lambda: got.append(queue.get()))
    waiter.start()
    queue.close()
    waiter.join(5)

    assert got == [None]


def test_the_keys_of_one_agent_share_its_rank(database_url: str) -> None:
    judge = GatedJudge()  # the gate stays shut: every run stays unfinished
    with TestClient(create_app(_one_worker(database_url), backends=lambda m: judge)) as client:
        engine = client.app.state.engine  # type: ignore[attr-defined]
        keys = [key_headers(engine, "agent-alpha", "buyer") for _ in range(2)]
        ids = [
            client.post(
                "/api/agent/runs", json=example("haggle", run_id=f"k-{n}"), headers=keys[n % 2]
            ).json()["run_id"]
            for n in range(3)
        ]
        ranks = [run_priority(engine, run_id) for run_id in ids]
        judge.gate.set()

    assert ranks == [0, -1, -2]
