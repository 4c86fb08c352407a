"""Scores out as Phoenix span annotations, read back through a real Arize Phoenix on loopback
(started once by conftest.py), and couriers that never hold scoring up: a dead receiver costs
one warning, a failing one one retry, and no key ever reaches a log line."""

from __future__ import annotations

import logging
import socket
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from judge.core.domain.scorecard import Scorecard
from judge.core.errors import ConfigError
from judge.engine.settings import Settings, load_settings
from judge.engine.telemetry.annotations import (
    Courier,
    Langfuse,
    Phoenix,
    Receivers,
    Target,
    flush_scores,
    phoenix_annotations,
    receivers_of,
    send_scores,
    target_of,
)
from judge.engine.telemetry.opentelemetry import SpanRef, explanation, score_label
from judge.server.web import create_app
from tests.conftest import example, owner_headers, service_settings, wait_final
from tests.engine.telemetry.conftest import (
    LANGFUSE_SECRET,
    PHOENIX_KEY,
    SPAN_ID,
    TRACE_ID,
    LoopbackReceiver,
    all_traits,
    free_port,
    received,
    varied_judge,
)


def agent_trace(phoenix: str) -> tuple[str, str]:
    """An agent's trace with a root span and one child, exported to Phoenix by the SDK as an
    instrumented agent would: its trace and root span ids."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": "shop-service"}))
    exporter = OTLPSpanExporter(endpoint=f"{phoenix}/v1/traces")
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("shop")
    with (
        tracer.start_as_current_span("invoke_agent shop-bot") as root,
        tracer.start_as_current_span("chat gpt-4o"),
    ):
        pass
    provider.shutdown()
    context = root.get_span_context()
    return f"{context.trace_id:032x}", f"{context.span_id:016x}"


def phoenix_read(
    url: str, kind: str, ids: dict[str, str], count: int, timeout: float = 90
) -> list[dict[str, Any]]:
    """The ``kind`` (span or trace) annotations Phoenix holds on ``ids``, once ``count`` of
    them are there."""
    deadline, found = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        answer = httpx.get(
            f"{url}/v1/projects/default/{kind}_annotations", params={**ids, "limit": 1000}
        )
        found = answer.json().get("data", []) if answer.status_code == 200 else []
        if len(found) >= count:
            return list(found)
        time.sleep(0.5)
    raise AssertionError(f"{len(found)} of {count} {kind} annotations in Phoenix after {timeout}s")


def assert_annotations_are_the_cards(annotations: list[dict[str, Any]], card: Scorecard) -> None:
    traits = all_traits(card)
    assert sorted(a["name"] for a in annotations) == sorted(traits)
    seat = card.seats["buyer"]
    for annotation in annotations:
        result = traits[annotation["name"]]
        assert annotation["annotator_kind"] == "LLM"
        assert annotation["result"] == {
            "score": pytest.approx(result.mean),
            "label": score_label(result.mean),
            "explanation": explanation(result),
        }
        meta = annotation["metadata"]
        assert meta["era_id"] == card.measurement_era.era_id
        assert (meta["rubric_version"], meta["rubric_hash"]) == (
            result.rubric_version,
            result.rubric_hash,
        )
        assert (meta["run_id"], meta["seat"], meta["judge_model"]) == (
            card.run_id,
            "buyer",
            card.judge_model,
        )
        # safety traits go to the operator's tool, as to /metrics, marked as such
        safe = annotation["name"] in (seat.safety_block or {})
        assert meta["block"] == ("safety" if safe else "capability")
    assert sum(a["metadata"]["block"] == "safety" for a in annotations) == len(
        seat.safety_block or {}
    )


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_scored_run_is_annotated_in_phoenix_on_the_span_it_came_from(
    phoenix: str, database_url: str
) -> None:
    trace_id, root = agent_trace(phoenix)
    received(phoenix, trace_id)  # the agent's trace is in Phoenix, as it would be
    settings = service_settings(database_url).model_copy(update={"phoenix_endpoint": phoenix})
    app = create_app(settings, backends=lambda model: varied_judge())
    owner = owner_headers()
    with TestClient(app) as client:
        data = {**example("haggle"), "run_id": "phx-0001", "trace_id": trace_id, "span_id": root}
        assert client.post("/api/evals/runs", json=data, headers=owner).status_code == 202
        assert wait_final(client, "phx-0001", owner)["status"] == "scored"
        body = client.get("/api/evals/phx-0001/scorecard", headers=owner).json()
    card = Scorecard.model_validate({k: v for k, v in body.items() if k in Scorecard.model_fields})
    annotations = phoenix_read(phoenix, "span", {"span_ids": root}, 12)
    assert {a["span_id"] for a in annotations} == {root}
    assert_annotations_are_the_cards(annotations, card)


def test_a_run_without_a_trace_is_annotated_on_its_judge_score_span(
    phoenix: str, card: Scorecard
) -> None:
    own = card.model_copy(update={"run_id": "phx-no-trace"})
    receivers = Receivers(otlp_endpoint=phoenix, phoenix=Phoenix(phoenix))
    where = send_scores(own, receivers, started_ns=time.time_ns() - 2_000_000_000)
    flush_scores()
    assert where.trace_id is not None and where.span_id is not None
    span = received(phoenix, where.trace_id)
    assert span["context"]["span_id"] == where.span_id and span["span_kind"] == "EVALUATOR"
    annotations = phoenix_read(phoenix, "span", {"span_ids": where.span_id}, 12)
    assert_annotations_are_the_cards(annotations, own)


def test_a_run_with_a_trace_but_no_span_annotates_the_trace(phoenix: str, card: Scorecard) -> None:
    trace_id, _ = agent_trace(phoenix)
    received(phoenix, trace_id)
    own = card.model_copy(update={"run_id": "phx-trace-only"})
    where = send_scores(own, Receivers(phoenix=Phoenix(phoenix)), trace_id=trace_id)
    flush_scores()
    assert where == Target(trace_id, None)
    annotations = phoenix_read(phoenix, "trace", {"trace_ids": trace_id}, 12)
    assert {a["trace_id"] for a in annotations} == {trace_id}
    assert_annotations_are_the_cards(annotations, own)


def test_the_target_is_the_runs_span_else_the_score_span_else_the_trace() -> None:
    score_span = SpanRef(TRACE_ID, "1111111111111111")
    assert target_of(TRACE_ID, SPAN_ID, score_span) == (TRACE_ID, SPAN_ID)
    assert target_of(TRACE_ID, None, score_span) == (TRACE_ID, "1111111111111111")
    assert target_of(None, None, score_span) == (TRACE_ID, "1111111111111111")
    assert target_of(TRACE_ID, None, None) == (TRACE_ID, None)
    assert target_of(None, None, None) == (None, None)


def test_nothing_to_annotate_sends_nothing(card: Scorecard, receiver: LoopbackReceiver) -> None:
    assert phoenix_annotations(card, Target(None, None)) is None
    send_scores(card, Receivers(phoenix=Phoenix(receiver.url)))
    flush_scores()
    assert receiver.requests == []


def test_phoenix_gets_its_key_as_a_bearer_token(
    card: Scorecard, receiver: LoopbackReceiver
) -> None:
    phoenix = Phoenix(receiver.url + "/", SecretStr(PHOENIX_KEY))
    send_scores(card, Receivers(phoenix=phoenix), trace_id=TRACE_ID, span_id=SPAN_ID)
    flush_scores()
    [post] = receiver.requests
    assert post.path == "/v1/span_annotations"
    assert post.headers["Authorization"] == f"Bearer {PHOENIX_KEY}"
    assert {a["span_id"] for a in post.body["data"]} == {SPAN_ID}
    identifiers = {a["identifier"] for a in post.body["data"]}
    assert identifiers == {f"judge:{card.run_id}:buyer:{card.measurement_era.era_id}"}


def test_sending_never_waits_on_the_receiver(card: Scorecard) -> None:
    """A receiver that takes the connection and never answers: the caller queues and goes on;
    the courier gives the post up after its timeout and one retry, with one warning."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        courier = Courier("Phoenix", url, timeout_s=0.5, retry_pause_s=0.1)
        started = time.perf_counter()
        courier.post("/v1/span_annotations", {"data": []}, "annotations of run r")
        assert time.perf_counter() - started < 0.05
        took = time.perf_counter()
        assert courier.flush(timeout_s=10)
        waited = time.perf_counter() - took
    assert 1.0 <= waited < 3.0, waited  # two attempts of 0.5 s and the pause, no more
    assert (courier.dropped, courier.delivered, courier.down) == (1, 0, True)


def test_a_dead_receiver_costs_one_warning_and_scoring_nothing(
    card: Scorecard, caplog: pytest.LogCaptureFixture
) -> None:
    dead_phoenix, dead_langfuse = (f"http://127.0.0.1:{free_port()}" for _ in range(2))
    receivers = Receivers(
        phoenix=Phoenix(dead_phoenix, SecretStr(PHOENIX_KEY)),
        langfuse=Langfuse(dead_langfuse, "pk-lf-public", SecretStr(LANGFUSE_SECRET)),
    )
    with caplog.at_level(logging.DEBUG):
        started = time.perf_counter()
        for n in range(3):
            run = card.model_copy(update={"run_id": f"dead-{n}"})
            send_scores(run, receivers, trace_id=TRACE_ID, span_id=SPAN_ID)
        queued_in = time.perf_counter() - started
        flush_scores(timeout_s=30)
    assert queued_in < 0.5, f"queueing three runs took {queued_in:.2f} s"
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 2, warnings
    assert any(w.startswith(f"Phoenix at {dead_phoenix} did not take") for w in warnings)
    assert any(w.startswith(f"Langfuse at {dead_langfuse} did not take") for w in warnings)
    assert "annotations of run dead-0" in caplog.text and "ConnectionRefusedError" in caplog.text
    assert PHOENIX_KEY not in caplog.text and LANGFUSE_SECRET not in caplog.text
    assert "Basic " not in caplog.text and "Bearer " not in caplog.text


@pytest.mark.parametrize(
    ("statuses", "posts", "warned"),
    [((503,), 2, True), ((503, 202), 2, False), ((429, 202), 2, False), ((400,), 1, True)],
)
def test_a_failing_post_is_retried_once_and_a_refused_one_never(
    card: Scorecard,
    caplog: pytest.LogCaptureFixture,
    statuses: tuple[int, ...],
    posts: int,
    warned: bool,
) -> None:
    server = LoopbackReceiver(*statuses)
    try:
        with caplog.at_level(logging.WARNING, logger="judge.annotations"):
            send_scores(card, Receivers(phoenix=Phoenix(server.url)), trace_id=TRACE_ID)
            flush_scores()
    finally:
        server.close()
    assert len(server.requests) == posts
    assert bool(caplog.records) is warned
    if warned:
        assert f"(HTTP {statuses[0]})" in caplog.records[0].getMessage()


def test_a_receiver_that_comes_back_warns_again_when_it_next_fails(
    card: Scorecard, caplog: pytest.LogCaptureFixture
) -> None:
    server = LoopbackReceiver(400, 202, 400)
    courier = Courier("Phoenix", server.url)
    try:
        with caplog.at_level(logging.INFO, logger="judge.annotations"):
            for n in range(3):
                courier.post("/v1/span_annotations", {"data": []}, f"annotations of run r{n}")
                assert courier.flush()
    finally:
        server.close()
    lines = [(r.levelname, r.getMessage().split(" (")[0]) for r in caplog.records]
    assert lines == [
        ("WARNING", f"Phoenix at {server.url} did not take the annotations of run r0"),
        ("INFO", f"Phoenix at {server.url} takes posts again"),
        ("WARNING", f"Phoenix at {server.url} did not take the annotations of run r2"),
    ]


def test_the_keys_are_secrets_in_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_PHOENIX_ENDPOINT", "http://127.0.0.1:6006")
    monkeypatch.setenv("JUDGE_PHOENIX_API_KEY", PHOENIX_KEY)
    monkeypatch.setenv("JUDGE_LANGFUSE_ENDPOINT", "https://cloud.langfuse.com")
    monkeypatch.setenv("JUDGE_LANGFUSE_PUBLIC_KEY", "pk-lf-public")
    monkeypatch.setenv("JUDGE_LANGFUSE_SECRET_KEY", LANGFUSE_SECRET)
    settings = Settings(dev_mode=True)
    receivers = receivers_of(settings)
    assert receivers.phoenix is not None and receivers.langfuse is not None
    assert receivers.phoenix.api_key is not None
    assert receivers.phoenix.api_key.get_secret_value() == PHOENIX_KEY
    assert receivers.langfuse.secret_key.get_secret_value() == LANGFUSE_SECRET
    shown = " ".join([repr(settings), str(settings), settings.model_dump_json(), repr(receivers)])
    assert PHOENIX_KEY not in shown and LANGFUSE_SECRET not in shown


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"langfuse_endpoint": "https://cloud.langfuse.com"}, "needs JUDGE_LANGFUSE_PUBLIC_KEY"),
        ({"langfuse_secret_key": LANGFUSE_SECRET}, "JUDGE_LANGFUSE_ENDPOINT is not"),
        ({"phoenix_api_key": PHOENIX_KEY}, "JUDGE_PHOENIX_ENDPOINT is not"),
        ({"phoenix_endpoint": f"http://me:{PHOENIX_KEY}@host:6006"}, "not in the URL"),
        ({"phoenix_endpoint": "file:///etc/passwd"}, "phoenix_endpoint"),
    ],
)
def test_settings_name_a_receiver_set_up_wrong_without_showing_a_key(
    changes: dict[str, str], problem: str
) -> None:
    with pytest.raises(ConfigError, match=problem) as caught:
        load_settings(dev_mode=True, **changes)
    assert PHOENIX_KEY not in str(caught.value) and LANGFUSE_SECRET not in str(caught.value)
