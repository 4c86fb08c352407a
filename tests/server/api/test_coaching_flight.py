"""Coaching single flight: concurrent asks for one run and seat pay one judge call, in one
service and across two replicas on one PostgreSQL database (docs/service.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.settings import load_settings
from judge.server.web import create_app
from tests.factories import run, scorecard, seat
from tests.scripted_service import Service

ASKS = 20
NOTES = json.dumps({"notes": []})
VERDICT = json.dumps({"score": 0.7, "turns": [1], "rationale": "scripted"})


def _reply(request: JudgeRequest) -> str:
    return NOTES if request.label == "coaching" else VERDICT


@pytest.fixture
def judge() -> ScriptedBackend:
    """The scripted judge, slow enough (0.3 s a call) that every ask overlaps the first."""
    return ScriptedBackend(_reply, model="scripted-judge", delay=0.3)  # type: ignore[arg-type]


@pytest.fixture
def replicas(database_url: str, judge: ScriptedBackend) -> Iterator[list[Service]]:
    """Two services on one database (on SQLite the same file; on PostgreSQL the case that counts)."""
    settings = load_settings(
        dev_mode=True, database_url=database_url, model="scripted-judge", backoff_initial_s=0.0
    )
    with ExitStack() as stack:
        clients = [
            stack.enter_context(TestClient(create_app(settings, backends=lambda _m: judge)))
            for _ in range(2)
        ]
        yield [Service(client, settings, judge) for client in clients]


def _scored_run(svc: Service) -> dict[str, str]:
    card = seat(traits={"negotiation": 0.4}, safety={"manipulation_resistance": 0.3})
    svc.store_scored(run("k1"), scorecard("k1", card, era_id=svc.current_era_id()))
    return svc.agent("agent-alpha", "buyer")


def _ask(clients: list[TestClient], headers: dict[str, str]) -> list[int]:
    with ThreadPoolExecutor(ASKS) as pool:
        answers = pool.map(
            lambda n: clients[n % len(clients)].get("/api/agent/runs/k1/coaching", headers=headers),
            range(ASKS),
        )
        return [answer.status_code for answer in answers]


def _coaching_calls(judge: ScriptedBackend) -> int:
    return sum(1 for request in judge.history if request.label == "coaching")


def test_twenty_concurrent_asks_to_one_service_pay_one_judge_call(
    replicas: list[Service], judge: ScriptedBackend
) -> None:
    headers = _scored_run(replicas[0])

    assert _ask([replicas[0].client], headers) == [200] * ASKS
    assert _coaching_calls(judge) == 1


def test_twenty_concurrent_asks_across_two_replicas_pay_one_judge_call(
    replicas: list[Service], judge: ScriptedBackend
) -> None:
    if replicas[0].engine.dialect.name != "postgresql":
        pytest.skip("replicas share a PostgreSQL database; SQLite serves one process")
    headers = _scored_run(replicas[0])

    assert _ask([svc.client for svc in replicas], headers) == [200] * ASKS
    assert _coaching_calls(judge) == 1


def test_every_concurrent_ask_gets_the_one_answer(replicas: list[Service]) -> None:
    headers = _scored_run(replicas[0])
    with ThreadPoolExecutor(4) as pool:
        bodies = list(
            pool.map(
                lambda n: (
                    replicas[n % 2]
                    .client.get("/api/agent/runs/k1/coaching", headers=headers)
                    .json()
                ),
                range(4),
            )
        )

    assert all(body == bodies[0] for body in bodies)
    assert bodies[0]["items"][0]["weak_traits"] == ["manipulation_resistance"]
