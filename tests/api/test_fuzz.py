"""A schemathesis run against the live app, in process, with both credentials: every
operation of the OpenAPI document gets valid and invalid requests (bounded examples, fixed
seed) with an owner token and with an agent key, and no answer may be a 5xx.

The app runs under its own lifespan (workers scoring what is accepted, on SQLite and on
PostgreSQL); requests go through Starlette's test client, built by schemathesis' own
serialisation of each generated case.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from judge import console
from judge.api import create_app
from judge.judging.backends import ScriptedBackend
from tests.conftest import example, key_headers, owner_headers, service_settings, wait_final

#: Examples per operation, per credential, per kind (random valid, random invalid, valid on stored data).
EXAMPLES = 6
#: Operations left out, by "METHOD /path", each with the reason; empty when every one passes.
EXCLUDED: dict[str, str] = {}
#: Path parameters that name what the fixture stored, so valid requests reach real data too.
KNOWN = {"run_id": "haggle-0007", "scenario_id": "market-haggle", "submission_id": "sub-1", "trait": "negotiation",
         "key": "eval_reward_weights"}


@pytest.fixture
def fuzzed(database_url: str, judge: ScriptedBackend) -> Iterator[TestClient]:
    app = create_app(service_settings(database_url), backends=lambda model: judge)
    with TestClient(app, raise_server_exceptions=False) as client:
        owner = owner_headers()
        assert client.post("/api/evals/runs", json=example("haggle"), headers=owner).status_code == 202
        wait_final(client, "haggle-0007", owner)
        opened = {"submission_id": "sub-1", "scenario_id": "market-haggle", "agent_id": "agent-alpha", "run_ids": ["haggle-0007"]}
        assert client.post("/api/evals/submissions", json=opened, headers=owner).status_code == 201
        yield client


def send(client: TestClient, case: Any, credentials: dict[str, str]) -> int:
    """Send one generated case with ``credentials``; the status code."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    body: dict[str, Any] = {}
    if "json" in kwargs:
        body["json"] = kwargs["json"]
    elif isinstance(kwargs.get("data"), (bytes, str)):
        body["content"] = kwargs["data"]
    elif "data" in kwargs:
        body["data"] = kwargs["data"]
    headers = {k: str(v) for k, v in (kwargs.get("headers") or {}).items() if k.lower() != "authorization"}
    response = client.request(
        kwargs["method"], kwargs["url"], params=kwargs.get("params"), headers={**headers, **credentials}, **body
    )
    return response.status_code


def fuzz_operation(client: TestClient, operation: Any, credentials: dict[str, str], statuses: Counter[int]) -> list[str]:
    """Run the bounded examples of one operation; the 5xx answers seen, described."""
    failures: list[str] = []
    known = {name: KNOWN[name] for name in re.findall(r"{(\w+)}", operation.path) if name in KNOWN}
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE),
        operation.as_strategy(GenerationMode.POSITIVE, path_parameters=known),
    )

    @given(cases)
    @settings(max_examples=3 * EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    def run(case: Any) -> None:
        status = send(client, case, credentials)
        statuses[status] += 1
        if status >= 500:
            failures.append(f"{operation.method.upper()} {operation.path} -> {status}: {case.as_curl_command()}")

    run()
    return failures


def test_no_operation_answers_5xx_to_generated_requests_with_either_credential(fuzzed: TestClient) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzzed.app)
    operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    agent = key_headers(fuzzed.app.state.engine, "agent-alpha", "buyer")  # type: ignore[attr-defined]
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    for operation in operations:
        if f"{operation.method.upper()} {operation.path}" in EXCLUDED:
            continue
        for credentials in (owner_headers(), agent):
            failures += fuzz_operation(fuzzed, operation, credentials, statuses)

    total = sum(statuses.values())
    print(f"fuzz: {total} cases over {len(operations)} operations; statuses {dict(sorted(statuses.items()))}")
    assert len(operations) >= 30 and total >= 10 * len(operations)
    assert statuses[200] >= len(operations), "too few requests reached stored data"
    assert failures == [], "\n".join(failures[:10])


#: The query parameters the console pages read, so generated values reach their parsing.
CONSOLE_QUERY = ("status", "scenario", "agent", "era", "board", "gated", "safety_below", "review", "after", "state",
                 "agent_a", "agent_b")
_TEXT = st.one_of(st.sampled_from(["", "haggle-0007", "market-haggle", "agent-alpha", "0.5", "-1", "nan", "1e999",
                                   "scored", "open", "true", "x" * 200]),
                  st.text(max_size=40))


def console_pages() -> list[str]:
    """Every console GET page (the console is HTML, outside the OpenAPI document)."""
    return sorted({route.path for router in console.ROUTERS for route in router.routes
                   if "GET" in getattr(route, "methods", ()) and not route.path.startswith("/console/static")})


def test_no_console_page_answers_5xx_to_generated_paths_and_queries(fuzzed: TestClient) -> None:
    from tests.console.test_pages import owner_token, sign_in

    assert sign_in(fuzzed, owner_token()).status_code == 303
    pages = console_pages()
    assert {"/console/runs", "/console/runs/{run_id}", "/console/queue", "/console/compare"} <= set(pages)
    failures: list[str] = []
    statuses: Counter[int] = Counter()

    @given(st.sampled_from(pages), st.dictionaries(st.sampled_from(CONSOLE_QUERY), _TEXT, max_size=4),
           st.sampled_from(["haggle-0007", "agent-alpha:haggle-0007", "nope", "a.b", "x" * 200]))
    @settings(max_examples=120, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
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
