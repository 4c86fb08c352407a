"""Generated paths and queries against the console pages of the live app: no answer may be a
5xx. (The API's operations are run by schemathesis in ``tests/api/test_conformance.py``.)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from judge import console
from judge.api import create_app
from judge.judging.backends import ScriptedBackend
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
    from tests.console.test_pages import owner_token, sign_in

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
