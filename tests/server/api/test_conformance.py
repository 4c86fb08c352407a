"""A schemathesis run against the live app, in process, with both credentials: every
operation of the OpenAPI document gets valid and invalid requests (bounded examples, fixed
seed) with an owner token and with an agent key. No answer may be a 5xx, and every answer
must conform to the document: a documented status code, the documented content type, and a
body that validates against the documented schema.

The app runs under its own lifespan (workers scoring what is accepted, on SQLite and on
PostgreSQL); requests go through Starlette's test client, built by schemathesis' own
serialisation of each generated case. The count of cases run is printed to the terminal.
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from judge.engine.judging.backends import ScriptedBackend
from judge.server.web import create_app
from tests.conftest import (
    VERDICT,
    example,
    key_headers,
    owner_headers,
    service_settings,
    wait_final,
)

#: Examples per operation, per credential, per kind (random valid, random invalid, valid on stored data).
EXAMPLES = 5
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: Path parameters that name what the fixture stored, so valid requests reach real data too.
KNOWN = {
    "run_id": "haggle-0007",
    "scenario_id": "market-haggle",
    "submission_id": "sub-1",
    "trait": "negotiation",
    "key": "eval_reward_weights",
}


@pytest.fixture
def fuzzed(database_url: str) -> Iterator[TestClient]:
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
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


def send(client: TestClient, case: Any, credentials: dict[str, str]) -> httpx.Response:
    """Send one generated case with ``credentials`` (in place of any it carries)."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    body: dict[str, Any] = {}
    if "json" in kwargs:
        body["json"] = kwargs["json"]
    elif isinstance(kwargs.get("data"), (bytes, str)):
        body["content"] = kwargs["data"]
    elif "data" in kwargs:
        body["data"] = kwargs["data"]
    headers = {
        k: str(v) for k, v in (kwargs.get("headers") or {}).items() if k.lower() != "authorization"
    }
    return client.request(
        kwargs["method"],
        kwargs["url"],
        params=kwargs.get("params"),
        headers={**headers, **credentials},
        **body,
    )


def check_operation(
    client: TestClient, operation: Any, credentials: dict[str, str], statuses: Counter[int]
) -> list[str]:
    """Run the bounded examples of one operation; every answer that broke a check, described."""
    failures: list[str] = []
    known = {name: KNOWN[name] for name in re.findall(r"{(\w+)}", operation.path) if name in KNOWN}
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
        operation.as_strategy(GenerationMode.POSITIVE, path_parameters=known),
    )

    @given(cases)
    @settings(
        max_examples=3 * EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def run(case: Any) -> None:
        response = send(client, case, credentials)
        statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except Exception as exc:  # noqa: BLE001  (schemathesis reports failed checks as exceptions)
            first = str(exc).strip().splitlines()[:6]
            failures.append(
                f"{operation.method.upper()} {operation.path} -> {response.status_code}: {first}"
            )

    run()
    return failures


def test_every_operation_answers_as_documented_with_either_credential(
    fuzzed: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzzed.app)
    operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    agent = key_headers(fuzzed.app.state.engine, "agent-alpha", "buyer")  # type: ignore[attr-defined]
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    for operation in operations:
        for credentials in (owner_headers(), agent):
            failures += check_operation(fuzzed, operation, credentials, statuses)

    total = sum(statuses.values())
    with capsys.disabled():  # shown in every run, CI logs included, not only on failure
        print(
            f"\nschemathesis: {total} cases over {len(operations)} operations x 2 credentials; "
            f"statuses {dict(sorted(statuses.items()))}; {len(failures)} failed a check"
        )
    assert len(operations) >= 35 and total >= 10 * len(operations)
    assert statuses[200] >= len(operations), "too few requests reached stored data"
    assert not any(status >= 500 for status in statuses)
    assert failures == [], "\n".join(failures[:15])


#: What a forged cursor may decode to: lists of any text (NUL and controls included), odd
#: numbers and times, other JSON, and bytes that are no JSON at all.
_CURSOR_CONTENT = st.one_of(
    st.builds(lambda v: json.dumps(v).encode(), st.lists(st.text(max_size=30), max_size=3)),
    st.builds(
        lambda first, second: json.dumps([first, second]).encode(),
        st.sampled_from(
            ["nan", "inf", "1e999", "0.5", "", "2026-12-01T00:00:00+08:00", "9999-99-99", "\x00"]
        ),
        st.text(max_size=30),
    ),
    st.builds(
        lambda v: json.dumps(v).encode(),
        st.one_of(st.integers(), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2)),
    ),
    st.binary(max_size=60),
)


def paged_operations(client: TestClient) -> list[str]:
    """Every GET route of the OpenAPI document that takes a ``cursor``."""
    document = client.get("/openapi.json").json()
    return sorted(
        path
        for path, item in document["paths"].items()
        if any(p["name"] == "cursor" for p in item.get("get", {}).get("parameters", []))
    )


def test_no_paged_list_answers_5xx_to_generated_cursor_contents(
    fuzzed: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    routes = [
        re.sub(r"{\w+}", lambda m: KNOWN.get(m.group()[1:-1], "x"), p)
        for p in paged_operations(fuzzed)
    ]
    agent = key_headers(fuzzed.app.state.engine, "agent-alpha", "buyer")  # type: ignore[attr-defined]
    statuses: Counter[int] = Counter()
    failures: list[str] = []

    @given(st.sampled_from(routes), st.sampled_from(["owner", "agent"]), _CURSOR_CONTENT)
    @settings(
        max_examples=150,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def run(route: str, who: str, content: bytes) -> None:
        cursor = base64.urlsafe_b64encode(content).decode().rstrip("=")
        answer = fuzzed.get(
            route, params={"cursor": cursor}, headers=owner_headers() if who == "owner" else agent
        )
        statuses[answer.status_code] += 1
        if answer.status_code not in (200, 401, 404, 422):
            failures.append(f"GET {route} as {who}, cursor of {content!r} -> {answer.status_code}")

    run()
    with capsys.disabled():
        print(
            f"\ncursor fuzz: {len(routes)} paged routes; statuses {dict(sorted(statuses.items()))}"
        )
    assert {"/api/evals/runs", "/api/agent/runs", "/api/evals/safety-review"} <= set(routes)
    assert statuses[422] >= 50
    assert failures == [], "\n".join(failures[:15])
