"""Request bounds at the door, on SQLite and PostgreSQL: 413 for large bodies, 422 naming the
field for counts, depth, non-finite numbers, unstorable text, seeds and ids; 401 for tokens
with out-of-range claims; nothing refused is stored, and what is accepted reads back."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import jwt
import pytest
from fastapi.testclient import TestClient

from judge.core.domain.limits import RESERVED_WORDS
from judge.core.errors import ConfigError
from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import Settings
from judge.server import console
from judge.server.api.limits import require_reserved, route_words
from judge.server.auth import ISSUER
from judge.server.web import create_app
from tests.conftest import SECRET, example, owner_headers, service_settings

MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(database_url: str, judge: ScriptedBackend) -> Iterator[MakeClient]:
    """A running app whose settings differ from the suite's by ``overrides``."""
    with ExitStack() as stack:

        def make(**overrides: Any) -> TestClient:
            settings = service_settings(database_url).model_copy(update=overrides)
            return stack.enter_context(
                TestClient(create_app(settings, backends=lambda model: judge))
            )

        yield make


def post_raw(client: TestClient, path: str, text: str, headers: dict[str, str]) -> Any:
    return client.post(
        path, content=text.encode(), headers={**headers, "Content-Type": "application/json"}
    )


def stored(client: TestClient, run_id: str, headers: dict[str, str]) -> int:
    return client.get(f"/api/evals/runs/{run_id}", headers=headers).status_code


def test_a_body_over_the_limit_answers_413_before_it_is_read(make_client: MakeClient) -> None:
    client = make_client(max_body_bytes=4096)
    big = json.dumps(example("haggle", run_id="big-1", adversary_config=None)) + " " * 5000
    forged = client.post(
        "/api/evals/runs",
        content=big,
        headers={"Authorization": "Bearer forged", "Content-Type": "application/json"},
    )
    owner = client.post(
        "/api/evals/runs",
        content=big,
        headers={**owner_headers(), "Content-Type": "application/json"},
    )

    # a forged credential is refused first, so its body is not read either
    assert (forged.status_code, owner.status_code) == (401, 413)
    assert forged.json() == {"code": "unauthenticated", "detail": "invalid or missing credentials"}
    assert owner.json() == {
        "code": "too_large",
        "detail": "body: larger than the limit of 4096 bytes (JUDGE_MAX_BODY_BYTES)",
    }
    assert stored(client, "big-1", owner_headers()) == 404


@pytest.mark.parametrize(
    "body",
    [b" " * (50 * 1024 * 1024), b'{"w": NaN}', b"[" * 100_000 + b"]" * 100_000, b"not json"],
    ids=["50MB", "NaN", "deep", "garbage"],
)
def test_a_body_without_any_credential_gets_the_401_unread(client: TestClient, body: bytes) -> None:
    started = time.perf_counter()
    response = client.post(
        "/api/evals/runs", content=body, headers={"Content-Type": "application/json"}
    )
    assert (response.status_code, response.json()) == (
        401,
        {"code": "unauthenticated", "detail": "invalid or missing credentials"},
    )
    assert response.headers["www-authenticate"] == "Bearer"
    assert time.perf_counter() - started < 5.0


def test_every_operation_that_takes_a_body_requires_a_credential(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    body_operations = {
        f"{method.upper()} {path}": operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in ("post", "put", "patch", "delete")
    }
    assert len(body_operations) >= 10
    assert [name for name, op in body_operations.items() if not op.get("security")] == []


def test_a_streamed_body_without_a_length_is_counted_and_cut_at_the_limit(
    make_client: MakeClient,
) -> None:
    client = make_client(max_body_bytes=4096)
    chunks = [b'{"run_id": "', *([b"x" * 1024] * 8), b'"}']
    response = client.post("/api/evals/runs", content=iter(chunks), headers=owner_headers())

    assert response.status_code == 413
    assert response.json()["detail"].startswith("body: larger than the limit of 4096 bytes")


def test_the_default_body_limit_is_four_mebibytes(
    client: TestClient, owner: dict[str, str]
) -> None:
    assert Settings.model_fields["max_body_bytes"].default == 4 * 1024 * 1024
    response = client.post("/api/evals/runs", content=b" " * (4 * 1024 * 1024 + 1), headers=owner)
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("field", "setting", "item"),
    [
        (
            "transcript",
            "max_events",
            {"turn": 1, "seat": "buyer", "kind": "message", "content": "hi"},
        ),
        ("win_conditions", "max_win_conditions", None),
        ("trace", "max_trace_steps", {"turn": 1, "seat": "buyer"}),
        ("seats", "max_seats", None),
    ],
)
def test_run_lists_over_their_limit_answer_422_naming_the_list(
    make_client: MakeClient, field: str, setting: str, item: dict[str, Any] | None
) -> None:
    client = make_client(**{setting: 3})
    items = (
        [item or {"id": f"c{i}", "met": True} for i in range(4)]
        if field != "seats"
        else [{"seat": f"s{i}", "agent_id": "a"} for i in range(4)]
    )
    response = client.post(
        "/api/evals/runs",
        json=example("haggle", run_id="many-1", **{field: items}),
        headers=owner_headers(),
    )

    assert response.status_code == 422
    assert response.json() == {
        "code": "invalid_request",
        "detail": f"body.{field}: 4 items, more than the limit of 3",
    }


def test_a_long_message_answers_422_naming_it(make_client: MakeClient) -> None:
    client = make_client(max_text_chars=1000)
    data = example("haggle", run_id="long-1")
    data["transcript"][0]["content"] = "x" * 1001
    response = client.post("/api/evals/runs", json=data, headers=owner_headers())
    assert (response.status_code, response.json()["detail"]) == (
        422,
        "body.transcript.0.content: 1001 characters, more than the limit of 1000",
    )


@pytest.mark.parametrize("depth", [40, 200, 900, 50_000])
def test_deeply_nested_action_args_answer_422_not_500(
    client: TestClient, owner: dict[str, str], depth: int
) -> None:
    data = example("haggle", run_id=f"deep-{depth}")
    data["transcript"].append(
        {"turn": 9, "seat": "buyer", "kind": "action", "name": "pay", "args": {"x": 0}}
    )
    text = json.dumps(data).replace('{"x": 0}', '{"x":' + "[" * depth + "]" * depth + "}")
    response = post_raw(client, "/api/evals/runs", text, owner)

    assert response.status_code == 422, response.text
    assert "nested deeper than 32 levels" in response.json()["detail"]
    assert stored(client, f"deep-{depth}", owner) == 404


@pytest.mark.parametrize(
    ("replace", "where"),
    [
        ('"weight": 1.0', '"weight": Infinity'),
        ('"weight": 1.0', '"weight": NaN'),
        ('"weight": 1.0', '"weight": 1e999'),
    ],
)
def test_non_finite_numbers_answer_422_naming_the_field(
    client: TestClient, owner: dict[str, str], replace: str, where: str
) -> None:
    data = example("haggle", run_id="inf-1")
    data["win_conditions"][0]["weight"] = 1.0
    text = json.dumps(data).replace(replace, where, 1)
    response = post_raw(client, "/api/evals/runs", text, owner)

    assert response.status_code == 422
    assert response.json()["detail"].startswith("body.win_conditions.0.weight: ")
    assert stored(client, "inf-1", owner) == 404


@pytest.mark.parametrize(
    ("escape", "problem"),
    [("\\ud800", "lone surrogate (U+D800)"), ("\\u0000", "NUL character (U+0000)")],
)
def test_unstorable_text_answers_422_naming_the_field(
    client: TestClient, owner: dict[str, str], escape: str, problem: str
) -> None:
    data = example("haggle", run_id="text-1")
    data["transcript"][0]["content"] = "MARK"
    response = post_raw(
        client, "/api/evals/runs", json.dumps(data).replace("MARK", f"a{escape}b"), owner
    )

    assert response.status_code == 422
    assert response.json()["detail"].startswith(f"body.transcript.0.content: contains a {problem}")


@pytest.mark.parametrize("seed", [2**31, 2**63, 2**70, -(2**31) - 1])
def test_seeds_beyond_what_both_stores_keep_answer_422(
    client: TestClient, owner: dict[str, str], seed: int
) -> None:
    response = client.post(
        "/api/evals/runs", json=example("haggle", run_id="seed-1", seed=seed), headers=owner
    )
    assert response.status_code == 422
    assert "seed" in response.json()["detail"]


@pytest.mark.parametrize("seed", [2**31 - 1, -(2**31)])
def test_seeds_at_the_bounds_are_stored_and_read_back(
    client: TestClient, owner: dict[str, str], seed: int
) -> None:
    response = client.post(
        "/api/evals/runs", json=example("haggle", run_id="seed-ok", seed=seed), headers=owner
    )
    assert response.status_code == 202, response.text
    assert client.get("/api/evals/runs/seed-ok", headers=owner).status_code == 200


@pytest.mark.parametrize(
    ("value", "ok"), [("x" * 200, True), ("x" * 201, False), ("a\u0000b", False)]
)
def test_adversary_config_is_bounded_to_what_the_store_keeps(
    client: TestClient, owner: dict[str, str], value: str, ok: bool
) -> None:
    response = client.post(
        "/api/evals/runs",
        json=example("haggle", run_id="adv-1", adversary_config=value),
        headers=owner,
    )
    assert response.status_code == (202 if ok else 422), response.text
    if not ok:
        assert "adversary_config" in response.json()["detail"]


@pytest.mark.parametrize("run_id", ["runs", "submissions", "stability", "..", "a:b", "x" * 129])
def test_run_ids_that_would_shadow_a_route_answer_422(
    client: TestClient, owner: dict[str, str], run_id: str
) -> None:
    response = client.post("/api/evals/runs", json=example("haggle", run_id=run_id), headers=owner)
    assert response.status_code == 422
    assert response.json()["detail"].startswith("body.run_id: ")


def test_every_word_of_every_mounted_route_is_reserved(client: TestClient) -> None:
    words = route_words(list(client.get("/openapi.json").json()["paths"]))
    assert {
        "runs",
        "submissions",
        "stability",
        "metrics",
        "scorecard",
        "coaching",
        "trajectory",
    } <= words
    assert words - RESERVED_WORDS == set()


def test_every_word_of_every_console_page_and_the_metrics_route_is_reserved(
    client: TestClient,
) -> None:
    paths = [route.path for router in console.ROUTERS for route in router.routes]
    words = route_words([*paths, "/metrics"])
    assert {"console", "sign-in", "queue", "calibration", "metrics"} <= words
    assert words - RESERVED_WORDS == set()
    assert client.get("/metrics").status_code != 404


def test_the_app_refuses_to_start_with_a_route_word_a_run_id_could_take() -> None:
    require_reserved(["/api/evals/{run_id}/metrics"])
    with pytest.raises(ConfigError, match=r"route words \['leaderboardz'\] must be added"):
        require_reserved(["/api/evals/{run_id}/metrics", "/api/leaderboardz/{scenario_id}"])


@pytest.mark.parametrize(
    "path",
    [
        "/api/evals/runs/a%00b",
        "/api/evals/runs/haggle-0007%0A",
        "/api/evals/runs/..%2F..",
        "/api/agent/stability/a%20b",
        "/api/evals/submissions/%F0%9F%98%80",
    ],
)
def test_path_segments_that_are_not_identifiers_answer_422(
    client: TestClient, owner: dict[str, str], path: str
) -> None:
    response = client.get(path, headers=owner)
    assert response.status_code == 422
    assert response.json()["detail"].startswith("path: segment ")


def test_a_nan_reward_weight_in_platform_config_answers_422(
    client: TestClient, owner: dict[str, str]
) -> None:
    text = '{"value": {"w_check_pass": 0.1, "w_check_fail": -0.05, "w_condition_flip": 1.0, "w_progress": NaN}}'
    response = client.put(
        "/api/evals/config/eval_reward_weights",
        content=text,
        headers={**owner, "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["detail"].startswith("body.value.w_progress: NaN is not a number")
    entry = client.get("/api/evals/config/eval_reward_weights", headers=owner).json()
    assert entry["source"] == "default"


def test_the_platform_cannot_lower_the_pass_floor_below_five(
    client: TestClient, owner: dict[str, str]
) -> None:
    response = client.put(
        "/api/evals/config/academy_eval_judge_denoise",
        json={"value": {"temperature": 0.0, "min_n_runs": 1, "n_runs": 1}},
        headers=owner,
    )
    assert response.status_code == 422
    assert "min_n_runs: Input should be greater than or equal to 5" in response.json()["detail"]


def _token(**claims: Any) -> dict[str, str]:
    now = int(time.time())
    base = {
        "sub": "ops",
        "aud": "judge",
        "iss": ISSUER,
        "iat": now,
        "exp": now + 3600,
        "role": "owner",
    }
    return {"Authorization": f"Bearer {jwt.encode({**base, **claims}, SECRET, algorithm='HS256')}"}


@pytest.mark.parametrize(
    "claims",
    [
        {"exp": 10**12},
        {"exp": "9999999999"},
        {"exp": str(int(time.time()) + 3600)},
        {"exp": 10**30},
        {"sub": "a\u0000b"},
        {"sub": "x" * 101},
        {"sub": ""},
    ],
)
def test_validly_signed_tokens_with_out_of_range_claims_answer_401(
    client: TestClient, claims: dict[str, Any]
) -> None:
    response = client.get("/api/evals/config", headers=_token(**claims))
    assert (response.status_code, response.json()) == (
        401,
        {"code": "unauthenticated", "detail": "invalid or missing credentials"},
    )


def test_a_well_formed_token_of_the_same_shape_is_accepted(client: TestClient) -> None:
    assert client.get("/api/evals/config", headers=_token()).status_code == 200


def test_a_run_with_forty_thousand_conditions_is_refused_at_once_by_its_own_limit(
    client: TestClient, owner: dict[str, str]
) -> None:
    wide = example(
        "haggle",
        run_id="wide-1",
        win_conditions=[{"id": f"c{i}", "met": True} for i in range(40_000)],
    )
    started = time.perf_counter()
    response = client.post("/api/evals/runs", json=wide, headers=owner)
    elapsed = time.perf_counter() - started

    assert (response.status_code, response.json()) == (
        422,
        {
            "code": "invalid_request",
            "detail": "body.win_conditions: 40000 items, more than the limit of 1000",
        },
    )
    assert elapsed < 10.0, f"{elapsed:.1f}s"  # the pairwise duplicate check it replaced took 13.8 s


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        (
            "/api/evals/stability/haggle?agent_id=agent-alpha&seed=1180591620717411303424",
            "query.seed: Input should be less than or equal to 2147483647",
        ),
        (
            "/api/evals/stability/haggle?agent_id=agent-alpha&seed=-9223372036854775809",
            "query.seed: Input should be greater than or equal to -2147483648",
        ),
        (
            "/api/evals/stability/haggle?agent_id=agent-alpha&adversary_config=a%00b",
            "query.adversary_config: contains a control character",
        ),
        (
            "/api/evals/stability/haggle?agent_id=a%00b",
            "query.agent_id: contains a control character",
        ),
        ("/api/leaderboards/haggle?era=a%00b", "query.era: contains a control character"),
        (
            "/api/evals/comparisons?agent_a=a%00b&agent_b=x",
            "query.agent_a: contains a control character",
        ),
        ("/api/evals/comparisons?agent_a=%ED%A0%80&agent_b=x", "query: not UTF-8 text"),
        ("/api/leaderboards/haggle?era=" + "x" * 201, "query.era: longer than 200 characters"),
    ],
)
def test_query_values_the_store_cannot_compare_answer_422(
    client: TestClient, owner: dict[str, str], query: str, detail: str
) -> None:
    response = client.get(query, headers=owner)
    assert (response.status_code, response.json()) == (
        422,
        {"code": "invalid_request", "detail": detail},
    )


def test_a_key_checked_by_the_guard_is_not_looked_up_again_by_the_route(
    client: TestClient,
    agent_key: Callable[[str, str], dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from judge.server.api import caller as auth

    lookups: list[str] = []
    real = auth.authenticate_agent

    def counted(session: Any, *, key: str) -> Any:
        lookups.append(key)
        return real(session, key=key)

    headers = agent_key("agent-alpha", "buyer")
    monkeypatch.setattr(auth, "authenticate_agent", counted)
    response = client.post("/api/agent/runs", json=example("haggle"), headers=headers)

    assert response.status_code == 202, response.text
    assert len(lookups) == 1
