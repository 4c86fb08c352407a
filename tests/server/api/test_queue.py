"""The owner's view of scoring: the queue route and the Prometheus endpoint (both stores)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import load_settings
from judge.server.web import create_app
from tests.conftest import PASSES_PER_SEAT, example, owner_headers, service_settings


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample in a Prometheus text answer (0 when absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    pattern = (
        rf"^{re.escape(name)}(\{{{re.escape(wanted)}\}})? ([0-9.e+-]+)$"
        if labels
        else rf"^{name} (\S+)$"
    )
    for line in text.splitlines():
        if match := re.match(pattern, line):
            return float(match.groups()[-1])
    return 0.0


def test_the_queue_route_counts_runs_by_status_and_lists_live_workers(
    client: TestClient,
    owner: dict[str, str],
    scored: Callable[..., dict[str, Any]],
    database_url: str,
) -> None:
    assert scored(example("haggle"))["status"] == "scored"
    body = client.get("/api/evals/queue", headers=owner).json()
    assert (body["queued"], body["scoring"], body["scored"], body["not_scored"]) == (0, 0, 1, 0)
    assert body["oldest_queued_age_s"] is None
    if database_url.startswith("sqlite"):
        assert body["executor"] == "threads" and body["workers"] == []
    else:
        assert body["executor"] == "queue"
        [worker] = body["workers"]  # the worker inside this judge serve
        assert (
            worker["alive"] is True
            and worker["seconds_since_heartbeat"] < 30
            and worker["runs_held"] == 0
        )


def test_the_queue_route_is_for_owners_only(
    client: TestClient, agent_key: Callable[[str, str], dict[str, str]]
) -> None:
    assert client.get("/api/evals/queue").status_code == 401
    assert (
        client.get("/api/evals/queue", headers=agent_key("buyer-agent", "buyer")).status_code == 401
    )


def test_metrics_count_judge_calls_tokens_and_runs_scored(
    client: TestClient, owner: dict[str, str], scored: Callable[..., dict[str, Any]]
) -> None:
    before = client.get("/metrics", headers=owner).text
    scored(example("haggle"))
    after = client.get("/metrics", headers=owner)
    assert after.status_code == 200 and after.headers["content-type"].startswith("text/plain")
    text, model = after.text, {"model": "scripted-test-judge"}
    assert (
        metric(text, "judge_calls_total", **model) - metric(before, "judge_calls_total", **model)
        == PASSES_PER_SEAT
    )
    assert metric(text, "judge_pass_seconds_count", **model) - metric(
        before, "judge_pass_seconds_count", **model
    ) == (PASSES_PER_SEAT)
    assert metric(text, "judge_runs", status="scored") == 1
    assert metric(text, "judge_runs", status="queued") == 0
    assert "judge_oldest_queued_run_seconds 0.0" in text


def test_metrics_need_an_owner_token_or_the_scrape_token(database_url: str) -> None:
    settings = load_settings(
        **{
            **service_settings(database_url).model_dump(),
            "metrics_token": "scrape-token-9f3Kq2Lx7Vb8Nw4Zr6Td1Hy5",
        }
    )
    judge = ScriptedBackend('{"score": 0.5}', model="scripted-test-judge")
    with TestClient(create_app(settings, backends=lambda model: judge)) as client:
        assert client.get("/metrics").status_code == 401
        assert (
            client.get("/metrics", headers={"Authorization": "Bearer wrong-token"}).status_code
            == 401
        )
        assert (
            client.get(
                "/metrics",
                headers={"Authorization": "Bearer scrape-token-9f3Kq2Lx7Vb8Nw4Zr6Td1Hy5"},
            ).status_code
            == 200
        )
        assert client.get("/metrics", headers=owner_headers()).status_code == 200
