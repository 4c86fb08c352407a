"""Live traces into ``judge serve`` (docs/integrations.md, "Live traces"): spans accepted per
second at ``/v1/traces``, traces turned into runs per second, the server's memory as pending
traces grow, and the cost of a rule's sampling decision, each beside a baseline measured in
the same run.

1. **Accepted**: starts ``python -m judge serve`` as its own process (SQLite, a quiet period of
   an hour so no trace is decided while loading) and posts OTLP/HTTP bodies as the
   OpenTelemetry SDK's exporter sends them (protobuf from the SDK's own encoder, gzip): GenAI
   traces of ``--spans`` spans (an ``invoke_agent`` root, ``chat`` spans with messages),
   ``--batch`` spans a request, ``--concurrency`` requests in flight on kept-alive
   connections. Rounds alternate with rounds of ``GET /api/health`` (no auth, no store read:
   the floor of a request on this stack), so a change in the machine's load falls on both;
   the ratios are ingest requests/s over health requests/s, and spans accepted in the time
   one health request takes (spans/s over health requests/s).
2. **Memory**: the server's resident memory (with its children) after each round, against the
   traces pending in the store then: spans are kept in the store, not in memory, so it should
   stay flat as they grow.
3. **Runs**: with the server stopped, the service's own sweep (``judge.server.service.ingest``)
   decides the pending traces in this process, one rule picking every trace: traces decided
   and runs made (mapped, screened and stored through the same intake as any run) per second.
4. **Sampling**: ``rules.sampled`` per trace id, in microseconds, against one bare sha256 of
   the trace id.

Client and server share the machine's cores (two here), so absolute figures understate a
dedicated server; the ratios are the figures to watch.

    python bench/otlp_ingest.py [--rounds 6] [--traces-per-round 2000] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import json
import os
import secrets
import sys
import tempfile
import time
import timeit
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api_load import free_port, rss_mib, start_server, wait_healthy
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from judge.engine.settings import load_settings
from judge.engine.traces.mapping import default_scenario, trace_run
from judge.engine.traces.otlp import span_from_record
from judge.server.auth import create_owner_token
from judge.server.service import ingest as ingest_service
from judge.server.service import rules as rule_service
from judge.server.service.intake import submit_run
from judge.server.store import ingest as ingest_repo
from judge.server.store.db import make_engine, transaction
from judge.server.store.tables import utcnow

SOURCE = "bench"


def messages(role: str, content: str) -> str:
    return json.dumps([{"role": role, "parts": [{"type": "text", "content": content}]}])


def make_spans(traces: int, spans_per_trace: int) -> list[ReadableSpan]:
    """GenAI traces as the SDK records them: a root ``invoke_agent`` span and chat spans."""
    kept = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "bench-bot"}))
    provider.add_span_processor(SimpleSpanProcessor(kept))
    tracer = provider.get_tracer("bench")
    for n in range(traces):
        with tracer.start_as_current_span("invoke_agent helper") as root:
            root.set_attributes(
                {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "helper"}
            )
            for turn in range(spans_per_trace - 1):
                with tracer.start_as_current_span("chat gpt-4o") as span:
                    span.set_attributes(
                        {
                            "gen_ai.operation.name": "chat",
                            "gen_ai.request.model": "gpt-4o",
                            "gen_ai.input.messages": messages(
                                "user", f"Conversation {n}, turn {turn}: what does the lamp cost?"
                            ),
                            "gen_ai.output.messages": messages(
                                "assistant", f"It costs {40 + turn} coins; shall I reserve it?"
                            ),
                            "gen_ai.usage.input_tokens": 30 + turn,
                            "gen_ai.usage.output_tokens": 12,
                        }
                    )
    provider.shutdown()
    return list(kept.get_finished_spans())


def bodies(spans: list[ReadableSpan], batch: int) -> list[tuple[bytes, int]]:
    """Request bodies of ``batch`` spans each, protobuf and gzip, with their span counts."""
    out = []
    for start in range(0, len(spans), batch):
        chunk = spans[start : start + batch]
        out.append((gzip.compress(encode_spans(chunk).SerializeToString()), len(chunk)))
    return out


async def post_all(
    base: str, work: list[tuple[bytes, int]] | int, key: str, concurrency: int
) -> tuple[float, int]:
    """Send every body (or, given a count, that many health requests), ``concurrency`` at a
    time; returns the seconds taken and the spans accepted."""
    headers = {
        "x-judge-ingest-key": key,
        "Content-Type": "application/x-protobuf",
        "Content-Encoding": "gzip",
    }
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    queue: asyncio.Queue[tuple[bytes, int] | None] = asyncio.Queue()
    items = work if isinstance(work, list) else [None] * work
    for item in items:
        queue.put_nowait(item)
    accepted = 0

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal accepted
        while not queue.empty():
            item = queue.get_nowait()
            if item is None:
                answer = await client.get("/api/health")
                assert answer.status_code == 200, answer.text
                continue
            answer = await client.post("/v1/traces", content=item[0], headers=headers)
            assert answer.status_code == 200, (answer.status_code, answer.text[:300])
            accepted += item[1]

    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        await client.get("/api/health")
        started = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        return time.perf_counter() - started, accepted


def pending_traces(engine: Any) -> int:
    with transaction(engine) as session:
        return len(
            ingest_repo.ready_traces(
                session,
                now=utcnow() + timedelta(days=1),
                quiet_s=0,
                stale_s=1e9,
                limit=10_000_000,
            )
        )


def intake_floor(engine: Any, settings: Any, keys: list[str]) -> tuple[float, int]:
    """Seconds to submit, straight through the intake, the runs the decided traces ``keys``
    map to (under new ids, by the same kind of submitter, so screened alike): the floor under
    the sweep's runs per second. Mapping is done before the clock starts."""
    runs = []
    for n, trace_id in enumerate(keys):
        with transaction(engine) as session:
            records = ingest_repo.trace_spans(session, source=SOURCE, trace_id=trace_id)
        spans = [span_from_record(json.loads(r)) for r in records]
        mapped = trace_run(trace_id, spans, default_scenario(spans), f"ingest:{SOURCE}", [])
        runs.append(mapped.run.model_copy(update={"run_id": f"intake-floor-{n}"}))
    started = time.perf_counter()
    for run in runs:
        submit_run(
            engine, run=run, submitted_by=f"{rule_service.RULE_ACTOR}floor", settings=settings
        )
    return time.perf_counter() - started, len(runs)


def sampling_cost(repeat: int) -> tuple[float, float]:
    """Microseconds per call of ``rules.sampled`` and of one bare sha256 of the trace id."""
    ids = [secrets.token_hex(16) for _ in range(1000)]
    seed = "bench-seed"

    def decide() -> None:
        for t in ids:
            rule_service.sampled(t, rate=0.5, seed=seed)

    def bare() -> None:
        for t in ids:
            hashlib.sha256(t.encode()).digest()

    rounds = max(1, repeat // len(ids))
    decided = min(timeit.repeat(decide, number=rounds, repeat=5)) / (rounds * len(ids))
    hashed = min(timeit.repeat(bare, number=rounds, repeat=5)) / (rounds * len(ids))
    return decided * 1e6, hashed * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6, help="loading rounds (memory points)")
    parser.add_argument("--traces-per-round", type=int, default=2000)
    parser.add_argument("--spans", type=int, default=6, help="spans a trace (root included)")
    parser.add_argument("--batch", type=int, default=512, help="spans a request (the SDK's)")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--health", type=int, default=2000, help="health requests a round")
    parser.add_argument("--sweep-traces", type=int, default=1000, help="traces decided at most")
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes, seconds: that the script still runs (CI)"
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.traces_per_round, args.health, args.sweep_traces = 2, 40, 50, 40

    secret = secrets.token_hex(32)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/ingest.db"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        owner = {
            "Authorization": "Bearer "
            + create_owner_token(
                owner="bench", secret=secret, audience="judge", ttl=timedelta(hours=2)
            )
        }
        spans_total = args.rounds * args.traces_per_round * args.spans
        # no trace is decided while loading; every span of the run fits the pending bound
        os.environ.update(
            {
                "JUDGE_INGEST_QUIET_S": "3600",
                "JUDGE_INGEST_SWEEP_S": "3600",
                "JUDGE_INGEST_MAX_PENDING_SPANS": str(spans_total + 1),
            }
        )
        server = start_server(url, port, secret)
        engine = make_engine(url)
        try:
            asyncio.run(wait_healthy(base))
            with httpx.Client(base_url=base, headers=owner) as client:
                key = client.post("/api/ingest/keys", json={"source": SOURCE}).json()["key"]
                rule = client.post(
                    "/api/evals/rules",
                    json={"name": "every trace", "sample_rate": 1.0, "traits": ["negotiation"]},
                )
                assert rule.status_code == 201, rule.text
            print(
                f"{args.rounds} rounds of {args.traces_per_round} traces x {args.spans} spans, "
                f"{args.batch} spans a request (protobuf, gzip), {args.concurrency} in flight"
            )
            print(
                f"{'round':>5} {'pending':>8} {'spans/s':>9} {'req/s':>7} "
                f"{'health/s':>9} {'ratio':>6} {'spans/health':>12} {'rss MiB':>8}"
            )
            rss = [(0, rss_mib(server.pid))]
            spans_rate, ratios = [], []
            for n in range(1, args.rounds + 1):
                work = bodies(make_spans(args.traces_per_round, args.spans), args.batch)
                health_s, _ = asyncio.run(post_all(base, args.health, key, args.concurrency))
                ingest_s, accepted = asyncio.run(post_all(base, work, key, args.concurrency))
                pending = pending_traces(engine)
                rss.append((pending, rss_mib(server.pid)))
                health_rate = args.health / health_s
                request_rate = len(work) / ingest_s
                spans_rate.append(accepted / ingest_s)
                ratios.append(request_rate / health_rate)
                print(
                    f"{n:>5} {pending:>8} {spans_rate[-1]:>9.0f} {request_rate:>7.1f} "
                    f"{health_rate:>9.0f} {ratios[-1]:>6.3f} {spans_rate[-1] / health_rate:>12.2f} "
                    f"{rss[-1][1]:>8.1f}"
                )
        finally:
            server.terminate()
            server.wait(30)

        # traces to runs: the service's own sweep, in this process, the server stopped
        settings = load_settings(database_url=url, jwt_secret=secret)
        far = utcnow() + timedelta(days=1)
        decided = made = 0
        swept: list[str] = []
        started = time.perf_counter()
        while decided < args.sweep_traces:
            with transaction(engine) as session:
                ready = ingest_repo.ready_traces(
                    session,
                    now=far,
                    quiet_s=settings.ingest_quiet_s,
                    stale_s=settings.ingest_stale_s,
                    limit=min(100, args.sweep_traces - decided),
                )
            if not ready:
                break
            for trace in ready:
                made += len(ingest_service.decide(engine, trace=trace, settings=settings))
                swept.append(trace.trace_id)
            decided += len(ready)
        sweep_s = time.perf_counter() - started
        intake_s, baseline = intake_floor(engine, settings, swept)
        engine.dispose()

    decided_us, hashed_us = sampling_cost(20_000 if args.smoke else 500_000)
    first, last = rss[1], rss[-1]
    print(
        f"traces to runs: {decided} traces decided, {made} runs made in {sweep_s:.1f}s: "
        f"{decided / sweep_s:.1f} traces/s, {made / sweep_s:.1f} runs/s"
    )
    print(
        f"intake floor: {baseline} of the same runs submitted directly (submit_run, screened "
        f"alike) in {intake_s:.1f}s: {baseline / intake_s:.1f} runs/s; ingest runs/s over it "
        f"{(made / sweep_s) / (baseline / intake_s):.2f}"
    )
    print(
        f"sampling decision: {decided_us:.2f} us a trace; bare sha256 of the trace id "
        f"{hashed_us:.2f} us; ratio {decided_us / hashed_us:.2f}"
    )
    print(
        f"spans_per_s={sorted(spans_rate)[len(spans_rate) // 2]:.0f} "
        f"ingest_to_health_ratio={sorted(ratios)[len(ratios) // 2]:.3f} "
        f"runs_per_s={made / sweep_s:.1f} "
        f"runs_to_intake={(made / sweep_s) / (baseline / intake_s):.2f} "
        f"rss_mib={first[1]:.1f}@{first[0]}->{last[1]:.1f}@{last[0]} "
        f"rss_growth={last[1] / first[1]:.3f} sampling_us={decided_us:.2f} "
        f"sampling_to_sha256={decided_us / hashed_us:.2f}"
    )


if __name__ == "__main__":
    main()
