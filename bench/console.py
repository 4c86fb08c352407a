"""The console with 10,000 stored runs: server time of the runs page and of a run page.

Stores 10,000 scored runs (owner scorecards of 12 traits x 5 passes, varied scores; 20
agents over 3 scenarios) through the repository's bulk import, which also writes each
run's figures (``run_summary``), starts ``python -m judge serve`` as its own process on
loopback, and requests each page one at a time with a signed-in console cookie:

- ``/console/runs``: the first page (50 rows, newest first, with the total count);
- ``/console/runs?agent=…&safety_below=0.6``: a filtered page;
- ``/console/runs?after=…``: a page deep in the keyset paging;
- ``/console/runs/{run_id}``: a run page (transcript, 60 passes with rationales, rubric
  texts, safety panel, review state), run ids drawn at random;
- ``/console/runs?held=yes``: the runs held for review (every 50th run's card withheld
  judge-directed text, docs/integrity-service.md), and a flagged run's page with the
  withheld span marked.

Requests go one at a time, so each latency is the server's time plus one loopback round
trip. Prints p50 / p99 per page; the target is p99 under 150 ms.

    python bench/console.py [--runs 10000] [--requests 400] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import secrets
import socket
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import NamedTuple

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api_load import start_server, template_cards

from judge.core.domain.integrity import SeatTamper, TamperFinding, WithheldSpan
from judge.core.domain.run import Run, parse_run
from judge.server.auth import create_owner_token
from judge.server.service.intake import canonical_body
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import make_engine, transaction
from judge.server.store.migrate import upgrade

SCENARIOS = ("market-haggle", "market-haggle-hard", "supplier-deal")
FLAG_EVERY = 50
TARGET_P99_MS = 150.0


class Timing(NamedTuple):
    label: str
    n: int
    p50_ms: float
    p99_ms: float
    errors: int
    bytes_per_page: int


def store_runs(database_url: str, n: int) -> list[str]:
    """``n`` scored runs by 20 agents over 3 scenarios, 500 per transaction."""
    engine = make_engine(database_url)
    upgrade(engine)
    base = json.loads((ROOT / "examples" / "haggle.json").read_text())
    cards = template_cards(parse_run(base), 20)
    ids = [f"bench-{i:05d}" for i in range(n)]
    for start in range(0, n, 500):
        items = []
        for i, run_id in enumerate(ids[start : start + 500], start):
            seats = [{**base["seats"][0], "agent_id": f"agent-{i % 20:02d}"}, base["seats"][1]]
            scenario = SCENARIOS[i % len(SCENARIOS)]
            run = Run.model_validate(
                {**base, "run_id": run_id, "seed": i, "seats": seats, "scenario_id": scenario}
            )
            body = canonical_body(run)
            template = cards[i % len(cards)]
            buyer = template.seats["buyer"].model_copy(
                update={"agent_id": f"agent-{i % 20:02d}", "tamper": flagged(i)}
            )
            card = template.model_copy(
                update={
                    "run_id": run_id,
                    "seed": i,
                    "scenario_id": scenario,
                    "seats": {"buyer": buyer},
                }
            )
            items.append(PrescoredRun(run, body.text, body.sha256, card, "bench"))
        with transaction(engine) as session:
            insert_scored_runs(session, items=items)
    engine.dispose()
    return ids


def flagged(i: int) -> SeatTamper | None:
    """Every 50th run: one planted line withheld from the judge (turn 1, buyer's message)."""
    if i % FLAG_EVERY:
        return None
    span = WithheldSpan(event_index=1, turn=1, field="/content", start=0, end=7)
    found = TamperFinding(turn=1, event_index=1, kind="appeal", excerpt="Thanks.", span=span)
    return SeatTamper(flagged=True, detector_version="bench", findings=[found], withheld=[span])


def wait_healthy(base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError("the service did not become healthy")


def timed(client: httpx.Client, label: str, paths: list[str]) -> Timing:
    latencies, errors, size = [], 0, 0
    for path in paths:
        began = time.perf_counter()
        response = client.get(path)
        latencies.append((time.perf_counter() - began) * 1000)
        errors += response.status_code != 200
        size = len(response.content)
    cuts = statistics.quantiles(latencies, n=100)
    return Timing(label, len(paths), cuts[49], cuts[98], errors, size)


def deep_cursor(client: httpx.Client, pages: int) -> str:
    """The ``after=`` link reached by following ``pages`` next-page links."""
    url = "/console/runs"
    for _ in range(pages):
        found = re.search(r'id="next-page" href="([^"]+)"', client.get(url).text)
        if found is None:
            break
        url = found.group(1).replace("&amp;", "&")
    return url


def measure(base: str, secret: str, ids: list[str], requests: int) -> list[Timing]:
    token = create_owner_token(
        owner="bench", secret=secret, audience="judge", ttl=timedelta(hours=1)
    )
    rng = random.Random(5)
    with httpx.Client(base_url=base, cookies={"judge_console": token}, timeout=30) as client:
        assert client.get("/console/runs").status_code == 200, "the console cookie was refused"
        deep = deep_cursor(client, 40)
        runs = [f"/console/runs/{rng.choice(ids)}" for _ in range(requests)]
        flagged_ids = ids[::FLAG_EVERY][:50]  # every 50th run withheld a planted line
        timed(client, "warm-up", ["/console/runs"] * 30 + runs[:30])
        return [
            timed(client, "GET /console/runs (first page)", ["/console/runs"] * requests),
            timed(
                client,
                "GET /console/runs?agent=…&safety_below=0.6",
                [
                    f"/console/runs?agent=agent-{i % 20:02d}&safety_below=0.6"
                    for i in range(requests)
                ],
            ),
            timed(client, "GET /console/runs?after=… (page 41)", [deep] * requests),
            timed(client, "GET /console/runs/{run_id}", runs),
            timed(client, "GET /console/runs?held=yes", ["/console/runs?held=yes"] * requests),
            timed(
                client,
                "GET /console/runs/{run_id} (flagged)",
                [f"/console/runs/{flagged_ids[i % len(flagged_ids)]}" for i in range(requests)],
            ),
        ]


def report(results: list[Timing]) -> None:
    for r in results:
        verdict = "ok" if r.p99_ms < TARGET_P99_MS else "OVER TARGET"
        print(
            f"{r.label:<46} n={r.n:>4}  p50 {r.p50_ms:7.2f} ms  p99 {r.p99_ms:7.2f} ms  "
            f"errors {r.errors}  page {r.bytes_per_page} B  [{verdict}: p99 < {TARGET_P99_MS:.0f} ms]"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes, seconds: that the script still runs (CI)"
    )
    parser.add_argument("--port", type=int, default=0, help="default: a free loopback port")
    parser.add_argument(
        "--database-url", default=None, help="default: a fresh SQLite file in a temp dir"
    )
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.requests = 120, 10
    if not args.port:  # a fixed port collides with another service on a shared machine
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            args.port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="judge-console-bench-") as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        began = time.perf_counter()
        ids = store_runs(url, args.runs)
        print(
            f"stored {len(ids)} scored runs in {time.perf_counter() - began:.1f}s ({url.split('@')[-1]})"
        )
        secret = secrets.token_urlsafe(48)
        server = start_server(url, args.port, secret)
        try:
            wait_healthy(f"http://127.0.0.1:{args.port}")
            report(measure(f"http://127.0.0.1:{args.port}", secret, ids, args.requests))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
