"""Floods the request guard bounds, on SQLite and PostgreSQL: console posts capped at 16 KiB
and never parsed as JSON, anonymous 413/422 answers counted like refused credentials, and an
agent key's bad bodies keeping their submission slot (docs/security.md, "Floods")."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from judge.server.api.limits import CONSOLE_COOKIE
from judge.server.console.session import COOKIE
from judge.server.service.ratelimit import RateWindow, SharedWindow, SlidingWindow
from judge.server.web import create_app
from tests.conftest import example, key_headers, owner_headers, service_settings

MakeClient = Callable[..., TestClient]
JSON = {"Content-Type": "application/json"}
ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def make_client(database_url: str, judge: ScriptedBackend) -> Iterator[MakeClient]:
    with ExitStack() as stack:

        def make(**overrides: Any) -> TestClient:
            settings = service_settings(database_url).model_copy(update=overrides)
            return stack.enter_context(
                TestClient(create_app(settings, backends=lambda model: judge))
            )

        yield make


def _noting(events: list[str], original: Callable[[RateWindow, str], None]) -> Any:
    def record(self: RateWindow, key: str) -> None:
        events.append("counted")
        original(self, key)

    return record


def test_a_refused_credential_is_counted_before_its_answer_leaves(
    database_url: str, judge: ScriptedBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that asks again the moment it reads a 401 already meets the count: on a busy
    replica the count used to land after the answer, so a flood could outrun its limit."""
    events: list[str] = []
    for window in (SlidingWindow, SharedWindow):
        monkeypatch.setattr(window, "record", _noting(events, window.record))
    app = create_app(service_settings(database_url), backends=lambda model: judge)

    async def spy(scope: Any, receive: Any, send: Any) -> None:
        async def watch(message: Any) -> None:
            if message["type"] == "http.response.start":
                events.append(f"answered {message['status']}")
            await send(message)

        await app(scope, receive, watch)

    bad = {"Authorization": "Bearer sk_live_aaaaaaaaaaaa_" + "x" * 43}
    with TestClient(spy) as client:
        for _ in range(2):
            client.get("/api/agent/runs", headers=bad)
        client.get("/api/health")

    assert events == ["counted", "answered 401"] * 2 + ["answered 200"]


def test_the_guard_knows_the_console_cookie_by_its_name() -> None:
    assert CONSOLE_COOKIE == COOKIE


@pytest.mark.parametrize("path", ["/console/anything", "/console/sign-in", "/console/sign-out"])
def test_a_large_console_post_answers_413_at_sixteen_kib(client: TestClient, path: str) -> None:
    body = json.dumps({"x": "y" * (4 * 1024 * 1024)}).encode()

    answer = client.post(path, content=body, headers={**JSON, **ORIGIN})

    assert answer.status_code == 413
    assert answer.json()["detail"] == "body: larger than the limit of 16384 bytes (a console form)"


def test_a_streamed_console_post_is_cut_at_sixteen_kib(client: TestClient) -> None:
    chunks = iter([b"token=", *([b"x" * 4096] * 8)])

    answer = client.post("/console/sign-in", content=chunks, headers=ORIGIN)

    assert answer.status_code == 413


@pytest.mark.parametrize("path", ["/console/anything", "/console/runs/x/review"])
def test_a_console_post_without_a_session_is_not_parsed_as_json(
    client: TestClient, path: str
) -> None:
    deep = b"[" * 5000 + b"]" * 5000

    answer = client.post(path, content=deep, headers={**JSON, **ORIGIN})

    assert answer.status_code != 422
    assert answer.status_code in (401, 404, 405)


def test_anonymous_422_answers_count_towards_the_refused_credential_limit(
    make_client: MakeClient,
) -> None:
    client = make_client(max_failed_auth_per_client=3, rate_window_s=60.0)
    bad = [client.get("/api/evals/runs?since=%00").status_code for _ in range(3)]
    blocked = client.get("/api/evals/config", headers=owner_headers())

    assert bad == [422, 422, 422]
    assert blocked.status_code == 429


def test_anonymous_413_answers_count_towards_the_refused_credential_limit(
    make_client: MakeClient,
) -> None:
    client = make_client(max_failed_auth_per_client=2, rate_window_s=60.0)
    big = b"x" * (32 * 1024)
    bad = [client.post("/console/nowhere", content=big, headers=ORIGIN).status_code for _ in "ab"]

    assert bad == [413, 413]
    assert client.get("/api/health").status_code == 429


def test_an_owner_with_a_bad_query_is_not_taken_for_a_flood(make_client: MakeClient) -> None:
    client = make_client(max_failed_auth_per_client=2, rate_window_s=60.0)
    owner = owner_headers()
    bad = [client.get("/api/evals/runs?since=%00", headers=owner).status_code for _ in range(4)]

    assert bad == [422] * 4
    assert client.get("/api/evals/config", headers=owner).status_code == 200


def test_an_agent_keys_bad_body_keeps_its_submission_slot(make_client: MakeClient) -> None:
    client = make_client(max_submissions_per_key=1)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    buyer = key_headers(engine, "agent-alpha", "buyer")

    bad = client.post("/api/agent/runs", json=example("haggle", run_id="runs"), headers=buyer)
    good = client.post("/api/agent/runs", json=example("haggle", run_id="ok-1"), headers=buyer)

    assert bad.status_code == 422
    assert good.status_code == 429


def test_an_agent_keys_unparseable_body_keeps_its_submission_slot(make_client: MakeClient) -> None:
    client = make_client(max_submissions_per_key=1)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    buyer = key_headers(engine, "agent-alpha", "buyer")

    bad = client.post("/api/agent/runs", content=b"[" * 5000, headers={**buyer, **JSON})
    good = client.post("/api/agent/runs", json=example("haggle", run_id="ok-1"), headers=buyer)

    assert bad.status_code == 422
    assert good.status_code == 429


def test_an_agent_keys_422_is_not_counted_as_a_refused_credential(
    make_client: MakeClient,
) -> None:
    client = make_client(max_failed_auth_per_client=2, max_submissions_per_key=0)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    buyer = key_headers(engine, "agent-alpha", "buyer")
    bad = [
        client.post("/api/agent/runs", json=example("haggle", run_id="runs"), headers=buyer)
        for _ in range(3)
    ]

    assert [b.status_code for b in bad] == [422] * 3
    assert client.get("/api/evals/config", headers=owner_headers()).status_code == 200


@pytest.mark.parametrize(
    ("path", "headers"),
    [("/console/nowhere", ORIGIN), ("/console/sign-in", {"Origin": "http://evil.example"})],
)
def test_anonymous_console_posts_refused_for_any_reason_are_counted(
    make_client: MakeClient, path: str, headers: dict[str, str]
) -> None:
    client = make_client(max_failed_auth_per_client=3, rate_window_s=60.0)
    refused = [client.post(path, content=b"a=b", headers=headers).status_code for _ in range(3)]

    assert all(400 <= code < 500 and code != 429 for code in refused)
    assert client.get("/api/health").status_code == 429


def test_a_signed_in_owners_refused_console_post_is_not_counted(make_client: MakeClient) -> None:
    from tests.server.console.test_pages import owner_token, sign_in

    client = make_client(max_failed_auth_per_client=2, rate_window_s=60.0)
    assert sign_in(client, owner_token()).status_code == 303
    refused = [
        client.post("/console/runs/nope/review", data={"csrf": "x"}, headers=ORIGIN).status_code
        for _ in range(3)
    ]

    assert refused == [403, 403, 403]
    assert client.get("/api/health").status_code == 200
