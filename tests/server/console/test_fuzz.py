"""Generated paths and queries against the console pages of the live app: no answer may be a
5xx. (The API's operations are run by schemathesis in ``tests/server/api/test_conformance.py``.)
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from judge.engine.judging.backends import ScriptedBackend
from judge.server import console
from judge.server.web import create_app
from tests.conftest import example, owner_headers, service_settings, wait_final


@pytest.fixture
def fuzzed(database_url: str, judge: ScriptedBackend) -> Iterator[TestClient]:
    app = create_app(service_settings(database_url), backends=lambda model: judge)
    with TestClient(app, raise_server_exceptions=False) as client:
        owner = owner_headers()
        assert (
            client.post("/api/evals/runs", json=example("haggle"), headers=owner).status_code == 202
        )
        wait_final(client, "haggle-0007", owner)
        opened = {
            "submission_id": "sub-1",
            "scenario_id": "market-haggle",
            "agent_id": "agent-alpha",
            "run_ids": ["haggle-0007"],
        }
        assert client.post("/api/evals/submissions", json=opened, headers=owner).status_code == 201
        yield client


#: The query parameters the console pages read, so generated values reach their parsing.
CONSOLE_QUERY = (
    "status",
    "scenario",
    "agent",
    "era",
    "board",
    "gated",
    "safety_below",
    "review",
    "after",
    "state",
    "agent_a",
    "agent_b",
)
_TEXT = st.one_of(
    st.sampled_from(
        [
            "",
            "haggle-0007",
            "market-haggle",
            "agent-alpha",
            "0.5",
            "-1",
            "nan",
            "1e999",
            "scored",
            "open",
            "true",
            "x" * 200,
        ]
    ),
    st.text(max_size=40),
)


def console_pages() -> list[str]:
    """Every console GET page (the console is HTML, outside the OpenAPI document)."""
    return sorted(
        {
            route.path
            for router in console.ROUTERS
            for route in router.routes
            if "GET" in getattr(route, "methods", ())
            and not route.path.startswith("/console/static")
        }
    )


def test_no_console_page_answers_5xx_to_generated_paths_and_queries(fuzzed: TestClient) -> None:
    from tests.server.console.test_pages import owner_token, sign_in

    assert sign_in(fuzzed, owner_token()).status_code == 303
    pages = console_pages()
    assert {"/console/runs", "/console/runs/{run_id}", "/console/queue", "/console/compare"} <= set(
        pages
    )
    failures: list[str] = []
    statuses: Counter[int] = Counter()

    @given(
        st.sampled_from(pages),
        st.dictionaries(st.sampled_from(CONSOLE_QUERY), _TEXT, max_size=4),
        st.sampled_from(["haggle-0007", "agent-alpha:haggle-0007", "nope", "a.b", "x" * 200]),
    )
    @settings(
        max_examples=120,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def run(page: str, query: dict[str, str], segment: str) -> None:
        path = re.sub(r"{\w+}", segment, page)
        status = fuzzed.get(path, params=query).status_code
        statuses[status] += 1
        if status >= 500:
            failures.append(f"GET {path} {query} -> {status}")

    run()
    print(f"console fuzz: statuses {dict(sorted(statuses.items()))}")
    assert statuses[200] >= 20, "too few requests reached a page"
    assert failures == [], "\n".join(failures[:10])


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


#: What a forged cursor may decode to: any text (NUL and controls included), odd JSON, bytes.
_CURSOR_CONTENT = st.one_of(
    st.builds(lambda a, b: f"{a}|{b}".encode(), st.text(max_size=30), st.text(max_size=30)),
    st.builds(lambda v: json.dumps(v).encode(), st.lists(st.text(max_size=20), max_size=3)),
    st.builds(
        lambda f, r: json.dumps([f, r]).encode(),
        st.sampled_from(["nan", "inf", "-1e999", "0.5", "", "1e308", "\x00"]),
        st.text(max_size=20),
    ),
    st.binary(max_size=60),
)


def test_no_console_list_answers_5xx_to_generated_cursor_contents(fuzzed: TestClient) -> None:
    from tests.server.console.test_pages import owner_token, sign_in

    assert sign_in(fuzzed, owner_token()).status_code == 303
    failures: list[str] = []
    statuses: Counter[int] = Counter()

    @given(st.sampled_from(["/console/runs", "/console/queue"]), _CURSOR_CONTENT)
    @settings(
        max_examples=80,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def run(page: str, content: bytes) -> None:
        status = fuzzed.get(page, params={"after": _b64(content)}).status_code
        statuses[status] += 1
        if status not in (200, 422):
            failures.append(f"GET {page}?after={_b64(content)} ({content!r}) -> {status}")

    run()
    print(f"console cursor fuzz: statuses {dict(sorted(statuses.items()))}")
    assert statuses[422] >= 20
    assert failures == [], "\n".join(failures[:10])


#: Bodies a client without any credential may post: JSON (deep, wide, hostile), forms, bytes.
_ANONYMOUS_BODY = st.one_of(
    st.builds(lambda n: b"[" * n + b"]" * n, st.integers(1, 8000)),
    st.builds(lambda v: json.dumps(v).encode(), st.dictionaries(st.text(max_size=10), st.text())),
    st.builds(lambda n: b"csrf=x&token=" + b"a" * n, st.integers(0, 40_000)),
    st.binary(max_size=2000),
    st.builds(lambda n: b'{"x": "' + b"y" * n + b'"}', st.integers(16 * 1024, 4 * 1024 * 1024)),
)


def test_console_posts_without_credentials_are_refused_and_never_parsed(
    fuzzed: TestClient,
) -> None:
    posts = sorted(
        {
            route.path
            for router in console.ROUTERS
            for route in router.routes
            if "POST" in getattr(route, "methods", ())
        }
    )
    assert {"/console/sign-in", "/console/sign-out", "/console/runs/{run_id}/review"} <= set(posts)
    failures: list[str] = []
    statuses: Counter[int] = Counter()

    @given(
        st.sampled_from([*posts, "/console/anything", "/console/runs"]),
        _ANONYMOUS_BODY,
        st.sampled_from(["application/json", "application/x-www-form-urlencoded", "text/plain"]),
        st.sampled_from([{}, {"Origin": "http://testserver"}, {"Origin": "http://evil.example"}]),
    )
    @settings(
        max_examples=120,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def run(page: str, body: bytes, kind: str, origin: dict[str, str]) -> None:
        path = page.replace("{run_id}", "haggle-0007").replace("{rule_id}", "rule-x")
        anonymous = TestClient(fuzzed.app, raise_server_exceptions=False)  # no session cookie
        answer = anonymous.post(path, content=body, headers={"Content-Type": kind, **origin})
        statuses[answer.status_code] += 1
        big = len(body) > 16 * 1024
        if (
            answer.status_code >= 500
            or answer.status_code < 400
            or (big != (answer.status_code == 413))
        ):
            failures.append(f"POST {path} {kind} {len(body)} bytes -> {answer.status_code}")
        if answer.status_code == 422 and "nested deeper" in answer.text:
            failures.append(f"POST {path}: the guard parsed an anonymous console body as JSON")

    run()
    print(f"console anonymous post fuzz: statuses {dict(sorted(statuses.items()))}")
    assert statuses[413] >= 5
    assert failures == [], "\n".join(failures[:10])
