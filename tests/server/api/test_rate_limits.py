"""Rate limits (429 with Retry-After and the JSON error body) and the coaching cache, on
SQLite and PostgreSQL: refused credentials per client address, runs per agent key, and
coaching answered from the store on every request after the first in an era."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from judge.server.service.ratelimit import SlidingWindow
from judge.server.web import create_app
from tests.conftest import example, key_headers, owner_headers, service_settings, wait_final

MakeClient = Callable[..., TestClient]
BAD = {"Authorization": "Bearer sk_live_aaaaaaaaaaaa_" + "x" * 43}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_window_allows_the_limit_then_names_the_wait_until_the_oldest_event_leaves() -> None:
    clock = Clock()
    window = SlidingWindow(limit=2, window_s=60.0, clock=clock)
    assert (window.acquire("k"), window.acquire("k")) == (0.0, 0.0)
    clock.now += 10
    assert window.acquire("k") == pytest.approx(50.0)
    assert window.acquire("other") == 0.0
    clock.now += 50
    assert window.acquire("k") == 0.0


def test_a_released_slot_is_free_again() -> None:
    window = SlidingWindow(limit=1, window_s=60.0, clock=Clock())
    assert window.acquire("k") == 0.0
    window.release("k")
    assert window.acquire("k") == 0.0
    assert window.retry_after("k") > 0


def test_a_zero_limit_means_no_limit() -> None:
    window = SlidingWindow(limit=0, window_s=60.0, clock=Clock())
    assert all(window.acquire("k") == 0.0 for _ in range(1000))


def test_the_number_of_tracked_keys_is_bounded() -> None:
    window = SlidingWindow(limit=1, window_s=60.0, clock=Clock(), max_keys=100)
    for i in range(1000):
        window.record(f"client-{i}")
    assert len(window._events) == 100


@pytest.fixture
def make_client(database_url: str, judge: ScriptedBackend) -> Iterator[MakeClient]:
    with ExitStack() as stack:

        def make(**overrides: Any) -> TestClient:
            settings = service_settings(database_url).model_copy(update=overrides)
            return stack.enter_context(
                TestClient(create_app(settings, backends=lambda model: judge))
            )

        yield make


def assert_429(response: Any, what: str) -> None:
    assert response.status_code == 429, response.text
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert response.json()["detail"].startswith(f"too many {what}; retry after ")


def test_refused_credentials_from_one_address_are_limited_then_answered_429(
    make_client: MakeClient,
) -> None:
    client = make_client(max_failed_auth_per_client=3, rate_window_s=60.0)
    refused = [client.get("/api/agent/runs/r1", headers=BAD).status_code for _ in range(3)]
    blocked = client.get("/api/agent/runs/r1", headers=BAD)
    even_valid = client.get("/api/evals/config", headers=owner_headers())

    assert refused == [401, 401, 401]
    assert_429(blocked, "refused credentials from this address")
    assert_429(even_valid, "refused credentials from this address")


def test_successful_requests_do_not_count_towards_the_failed_auth_limit(
    make_client: MakeClient,
) -> None:
    client = make_client(max_failed_auth_per_client=2)
    statuses = [
        client.get("/api/evals/config", headers=owner_headers()).status_code for _ in range(10)
    ]
    assert statuses == [200] * 10


def _run(run_id: str) -> dict[str, Any]:
    return example("haggle", run_id=run_id)


def test_runs_per_agent_key_are_limited_per_window(make_client: MakeClient) -> None:
    client = make_client(max_submissions_per_key=2)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    buyer = key_headers(engine, "agent-alpha", "buyer")
    other = key_headers(engine, "agent-alpha", "buyer")

    first = [
        client.post("/api/agent/runs", json=_run(f"lim-{i}"), headers=buyer).status_code
        for i in range(2)
    ]
    again = client.post("/api/agent/runs", json=_run("lim-0"), headers=buyer)
    third = client.post("/api/agent/runs", json=_run("lim-2"), headers=buyer)
    by_other_key = client.post("/api/agent/runs", json=_run("lim-3"), headers=other)

    assert first == [202, 202]
    assert again.status_code == 429  # the window is full: even a resubmission waits
    assert_429(third, "runs submitted with this key")
    assert client.get("/api/evals/runs/lim-2", headers=owner_headers()).status_code == 404
    assert by_other_key.status_code == 202


def test_runs_refused_for_who_sent_them_do_not_use_up_the_window(
    make_client: MakeClient,
) -> None:
    client = make_client(max_submissions_per_key=1)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    stranger = key_headers(engine, "agent-zeta", "buyer")  # agent-zeta sits in no seat
    refused = [
        client.post("/api/agent/runs", json=_run("lim-z"), headers=stranger).status_code
        for _ in range(3)
    ]
    # a bad body (413, 422) keeps its slot: tests/server/api/test_guard_floods.py
    assert refused == [403, 403, 403]


def test_owner_submissions_are_not_limited_per_key(make_client: MakeClient) -> None:
    client = make_client(max_submissions_per_key=1)
    statuses = [
        client.post("/api/evals/runs", json=_run(f"own-{i}"), headers=owner_headers()).status_code
        for i in range(3)
    ]
    assert statuses == [202, 202, 202]


def test_coaching_is_computed_once_per_run_seat_and_era(
    make_client: MakeClient, judge: ScriptedBackend
) -> None:
    client = make_client()
    owner = owner_headers()
    assert client.post("/api/evals/runs", json=_run("coach-1"), headers=owner).status_code == 202
    assert wait_final(client, "coach-1", owner)["status"] == "scored"
    buyer = key_headers(client.app.state.engine, "agent-alpha", "buyer")  # type: ignore[attr-defined]

    def coaching_calls() -> int:
        return sum(1 for r in judge.history if r.label == "coaching")

    answers = [client.get("/api/agent/runs/coach-1/coaching", headers=buyer) for _ in range(3)]
    calls_in_one_era = coaching_calls()
    client.put(
        "/api/evals/config/eval_reward_weights", json={"value": {"w_progress": 0.25}}, headers=owner
    )
    after_new_era = client.get("/api/agent/runs/coach-1/coaching", headers=buyer)

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert calls_in_one_era == 1
    assert after_new_era.status_code == 200 and coaching_calls() == 2
