"""Live traces into the service. The real OpenTelemetry SDK exporter (OTLP/HTTP protobuf,
gzip) sends a GenAI trace to a real ``judge serve`` on loopback (uvicorn, SQLite and
PostgreSQL); the spans are stored once however often the batch is sent, and the trace becomes
the rule's scored run. The quiet period and the stale limit hold to the second, the clock
given."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

pytest.importorskip("opentelemetry.exporter.otlp.proto.http")

from datetime import timedelta

from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from sqlalchemy.engine import Engine

from judge.engine.settings import Settings
from judge.engine.traces.otlp import decode_request
from judge.server.service import ingest as ingest_service
from judge.server.service import rules as rule_service
from judge.server.service.rules import RuleSpec
from judge.server.store import ingest as ingest_repo
from judge.server.store import runs as run_repo
from judge.server.store.db import make_engine, transaction
from judge.server.store.tables import utcnow
from tests.conftest import owner_headers, service_settings, serving
from tests.server.api.test_traces import TRACE, Service, chat, export, root


@pytest.fixture
def served(database_url: str) -> Iterator[str]:
    settings = service_settings(database_url).model_copy(
        update={"ingest_quiet_s": 0.3, "ingest_sweep_s": 0.1}
    )
    with serving(settings) as url:
        yield url


def _trace(provider: TracerProvider) -> None:
    tracer = provider.get_tracer("shop-agent")
    with tracer.start_as_current_span("invoke_agent helper") as agent:
        agent.set_attributes(
            {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "helper"}
        )
        with tracer.start_as_current_span("chat gpt-4o") as span:
            span.set_attributes(
                {
                    "gen_ai.operation.name": "chat",
                    "gen_ai.request.model": "gpt-4o",
                    "gen_ai.input.messages": json.dumps(
                        [{"role": "user", "parts": [{"type": "text", "content": "Lamp price?"}]}]
                    ),
                    "gen_ai.output.messages": json.dumps(
                        [{"role": "assistant", "parts": [{"type": "text", "content": "42 coins."}]}]
                    ),
                    "gen_ai.usage.input_tokens": 12,
                }
            )


def test_the_sdk_exporter_posts_to_judge_serve_and_the_trace_is_scored(
    served: str, database_url: str
) -> None:
    owner = owner_headers()
    with httpx.Client(base_url=served, headers=owner) as client:
        key = client.post("/api/ingest/keys", json={"source": "shop"}).json()["key"]
        rule = client.post(
            "/api/evals/rules",
            json={"name": "every trace", "sample_rate": 1.0, "traits": ["negotiation"]},
        ).json()["rule_id"]

        exporter = OTLPSpanExporter(
            endpoint=f"{served}/v1/traces",
            headers={"x-judge-ingest-key": key},
            compression=Compression.Gzip,
        )
        kept = InMemorySpanExporter()
        provider = TracerProvider(resource=Resource.create({"service.name": "shop-bot"}))
        provider.add_span_processor(SimpleSpanProcessor(kept))
        _trace(provider)
        spans = kept.get_finished_spans()

        assert exporter.export(spans) == SpanExportResult.SUCCESS
        assert exporter.export(spans) == SpanExportResult.SUCCESS  # a retry of the same batch
        service = Service(client, database_url)
        (made,) = service.rule_runs(rule, wait_s=15)
        deadline = time.monotonic() + 30
        while (status := client.get(f"/api/evals/runs/{made['run_id']}").json())["status"] not in (
            "scored",
            "not_scored",
        ):
            assert time.monotonic() < deadline
            time.sleep(0.05)

    assert service.spans() == 2
    assert made["trace_id"] == format(spans[0].context.trace_id, "032x")
    assert status["status"] == "scored" and status["leaderboard_class"] == "online"
    # the run names the trace's root span, where Phoenix annotations and Langfuse scores go
    [top] = [s for s in spans if s.parent is None]
    engine = make_engine(database_url)
    try:
        with transaction(engine) as session:
            row = run_repo.get_run(session, run_id=made["run_id"])
            assert row is not None
            run = run_repo.stored_run(row)
    finally:
        engine.dispose()
    assert (run.trace_id, run.span_id) == (made["trace_id"], format(top.context.span_id, "016x"))
    assert status["scenario_id"] == "shop-bot"


def test_a_trace_waits_out_its_quiet_period_and_a_rootless_one_is_closed_when_stale(
    engine: Engine, settings: Settings
) -> None:
    settings = settings.model_copy(update={"ingest_quiet_s": 30.0, "ingest_stale_s": 600.0})
    with transaction(engine) as session:
        spec = RuleSpec(name="all", sample_rate=1.0, traits=["negotiation"])
        rule = rule_service.create_rule(session, spec=spec, by="owner:t", settings=settings)
    quiet = decode_request(export(root(), chat()))
    rootless = decode_request(export(chat(trace="ab" * 16)))
    for decoded in (quiet, rootless):
        ingest_service.accept(engine, source="shop", decoded=decoded, settings=settings)
    now = utcnow()

    assert ingest_service.sweep(engine, settings=settings, now=now + timedelta(seconds=29)) == []
    made = ingest_service.sweep(engine, settings=settings, now=now + timedelta(seconds=31))
    assert made == [f"{rule.rule_id}-shop-{TRACE}"]
    assert ingest_service.sweep(engine, settings=settings, now=now + timedelta(seconds=601)) == []
    with transaction(engine) as session:
        done = ingest_repo.get_trace(session, source="shop", trace_id=TRACE)
        stale = ingest_repo.get_trace(session, source="shop", trace_id="ab" * 16)
        assert done is not None and stale is not None
        assert (done.state, done.outcome) == ("done", f"{rule.rule_id}: run {made[0]}")
        assert (stale.state, stale.outcome) == ("done", "stale: no ended root span arrived")
        assert ingest_repo.pending_spans(session, source="shop") == 0
