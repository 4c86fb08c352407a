"""Scores out as OpenTelemetry ``gen_ai.evaluation.result`` events, received by a real
collector on loopback (Arize Phoenix, started here), and a dead collector costing scoring
nothing but a warning."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.core.domain.scorecard import Scorecard
from judge.engine.pipeline import score_run
from judge.engine.settings import Settings
from judge.engine.telemetry.opentelemetry import (
    EVENT,
    EvaluationSender,
    evaluation_events,
    explanation,
    score_label,
)
from judge.server.web import create_app
from judge.tools.cli import main
from tests.conftest import example, key_headers, owner_headers, service_settings, wait_final
from tests.engine.telemetry.conftest import free_port, received, varied_judge
from tests.helpers import example as example_run

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
SPAN_ID = "00f067aa0ba902b7"


def test_every_trait_of_every_scored_seat_is_one_event() -> None:
    card = score_run(example_run("haggle.json"), backend=varied_judge())
    events = list(evaluation_events(card))
    seat = card.seats["buyer"]
    traits = {**seat.traits, **(seat.safety_block or {})}
    assert len(events) == len(traits) == 12
    for attrs in events:
        result = traits[str(attrs["gen_ai.evaluation.name"])]
        assert attrs["gen_ai.evaluation.score.value"] == result.mean
        assert attrs["judge.rubric.hash"] == result.rubric_hash
        assert attrs["judge.spread"] == pytest.approx(0.1)
        assert attrs["judge.passes"] == 5 and attrs["judge.era_id"] == card.measurement_era.era_id


def test_the_label_is_the_nearest_rubric_anchor() -> None:
    assert [score_label(v) for v in (0.0, 0.24, 0.26, 0.74, 0.76, None)] == [
        "low",
        "low",
        "middle",
        "middle",
        "high",
        "unscored",
    ]


def expected_attributes(card: Scorecard, trait: str) -> dict[str, Any]:
    result = {**card.seats["buyer"].traits, **(card.seats["buyer"].safety_block or {})}[trait]
    return {
        "gen_ai.evaluation.name": trait,
        "gen_ai.evaluation.score.value": pytest.approx(result.mean),
        "gen_ai.evaluation.score.label": score_label(result.mean),
        "gen_ai.evaluation.explanation": explanation(result),
        "judge.evaluator.model": "scripted-test-judge",
        "judge.rubric.version": result.rubric_version,
        "judge.rubric.hash": result.rubric_hash,
        "judge.prompt.version": card.prompt_version,
        "judge.era_id": card.measurement_era.era_id,
        "judge.passes": 5,
        "judge.spread": pytest.approx(0.1),
    }


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_scored_run_sends_every_traits_event_into_its_own_trace(
    phoenix: str, database_url: str
) -> None:
    settings = service_settings(database_url).model_copy(update={"otlp_endpoint": phoenix})
    app = create_app(settings, backends=lambda model: varied_judge())
    owner = owner_headers()
    with TestClient(app) as client:
        data = {**example("haggle"), "run_id": "otlp-0001", "trace_id": TRACE_ID}
        assert client.post("/api/evals/runs", json=data, headers=owner).status_code == 202
        assert wait_final(client, "otlp-0001", owner)["status"] == "scored"
        body = client.get("/api/evals/otlp-0001/scorecard", headers=owner).json()
    card = Scorecard.model_validate({k: v for k, v in body.items() if k in Scorecard.model_fields})
    span = received(phoenix, TRACE_ID)
    assert span["name"] == f"judge.score {card.scenario_id}" and span["parent_id"] is None
    assert span["span_kind"] == "EVALUATOR"  # OpenInference's kind, which Phoenix shows
    assert span["end_time"] > span["start_time"]  # from the start of scoring to the stored card
    events = [e for e in span["events"] if e["name"] == EVENT]
    names = sorted(str(e["attributes"]["gen_ai.evaluation.name"]) for e in events)
    seat = card.seats["buyer"]
    assert names == sorted([*seat.traits, *(seat.safety_block or {})])
    for event in events:
        trait = event["attributes"]["gen_ai.evaluation.name"]
        expected = expected_attributes(card, trait)
        assert {k: event["attributes"].get(k) for k in expected} == expected


def test_a_dead_collector_costs_scoring_nothing_but_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    card = score_run(example_run("haggle.json"), backend=varied_judge())
    sender = EvaluationSender(f"http://127.0.0.1:{free_port()}", delay_ms=50)
    started = time.perf_counter()
    sender.send(card)
    assert time.perf_counter() - started < 0.5  # queued, not sent, on the caller's thread
    with caplog.at_level(logging.WARNING, logger="judge.otlp"):
        assert sender.flush(timeout_s=30) is True
        time.sleep(0.2)
    sender.close()
    assert "did not take 1 evaluation span(s); they are dropped" in caplog.text


def test_settings_take_an_http_collector_url_only() -> None:
    with pytest.raises(ValueError, match="otlp_endpoint"):
        Settings(dev_mode=True, otlp_endpoint="file:///etc/passwd")


def test_judge_score_sends_the_cards_it_prints(
    phoenix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    monkeypatch.setenv("JUDGE_OTLP_ENDPOINT", phoenix)
    trace_id = "0af7651916cd43dd8448eb211c80319c"
    run = tmp_path / "run.json"
    run.write_text(json.dumps({**example("haggle"), "trace_id": trace_id}))
    assert main(["score", str(run), "--judge", "scripted/0.4", "--no-progress"]) == 0
    events = received(phoenix, trace_id)["events"]
    assert len(events) == 12
    assert {e["attributes"]["gen_ai.evaluation.score.value"] for e in events} == {0.4}
    assert {e["attributes"]["gen_ai.evaluation.score.label"] for e in events} == {"middle"}


def test_a_span_keeps_every_event_of_a_run_with_many_seats() -> None:
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    card = score_run(example_run("haggle.json"), backend=varied_judge())
    seat = card.seats["buyer"]
    many = {f"s{n}": seat.model_copy(update={"seat": f"s{n}"}) for n in range(20)}
    card = card.model_copy(update={"seats": many})
    memory = InMemorySpanExporter()
    sender = EvaluationSender("http://127.0.0.1:9", exporter=memory, delay_ms=10)
    sender.send(card)
    sender.flush()
    [span] = memory.get_finished_spans()
    assert len(span.events) == 20 * 12


def test_the_span_is_named_kinded_and_lasts_from_the_start_of_scoring() -> None:
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import SpanKind

    started = time.time_ns()
    card = score_run(example_run("haggle.json"), backend=varied_judge())
    memory = InMemorySpanExporter()
    sender = EvaluationSender("http://127.0.0.1:9", exporter=memory, delay_ms=10)
    where = sender.send(card, trace_id=TRACE_ID, started_ns=started)
    ended = time.time_ns()
    sender.flush()
    [span] = memory.get_finished_spans()
    assert span.name == "judge.score market-haggle" and span.kind is SpanKind.INTERNAL
    assert span.attributes is not None
    assert span.attributes["openinference.span.kind"] == "EVALUATOR"
    assert span.start_time == started and started < (span.end_time or 0) <= ended
    assert where == (TRACE_ID, f"{span.context.span_id:016x}")
    assert f"{span.context.trace_id:032x}" == TRACE_ID


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_an_agents_own_run_gets_a_trace_of_its_own(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, str | None, str | None]] = []
    monkeypatch.setattr(
        "judge.server.service.jobs.send_scores",
        lambda card, receivers, *, trace_id, span_id, started_ns: sent.append(
            (card.run_id, trace_id, span_id)
        ),
    )
    settings = service_settings(database_url)
    app = create_app(settings, backends=lambda model: varied_judge())
    owner = owner_headers()
    with TestClient(app) as client:
        alpha = key_headers(client.app.state.engine, "agent-alpha", "buyer")  # type: ignore[attr-defined]
        data = {**example("haggle"), "trace_id": TRACE_ID, "span_id": SPAN_ID}
        assert client.post("/api/agent/runs", json=data, headers=alpha).status_code == 202
        assert client.post("/api/evals/runs", json=data, headers=owner).status_code == 202
        wait_final(client, "agent-alpha:haggle-0007", owner)
        wait_final(client, "haggle-0007", owner)
    assert sorted(sent) == [
        ("agent-alpha:haggle-0007", None, None),
        ("haggle-0007", TRACE_ID, SPAN_ID),
    ]


def test_a_dead_collector_holds_the_flush_about_a_second_and_logs_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    card = score_run(example_run("haggle.json"), backend=varied_judge())
    sender = EvaluationSender(f"http://127.0.0.1:{free_port()}", delay_ms=60_000)
    sender.send(card)
    with caplog.at_level(logging.INFO):
        started = time.perf_counter()
        sender.flush(timeout_s=30)
        waited = time.perf_counter() - started
    sender.close()
    assert waited < 1.5, f"the flush waited {waited:.1f} s on a dead collector"
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and "did not take 1 evaluation span(s)" in lines[0], lines
