"""Scorecard reads under concurrent load, against a static route on the same stack.

Stores 10,000 scored runs (realistic owner scorecards: 12 traits x 5 passes with rubric
texts, about 42 KB of JSON each) through the repository functions, starts the service as
its own process (`python -m judge serve`, one uvicorn worker, the SQLite file or a
PostgreSQL URL), and loads it from this process over loopback with httpx:

- ``GET /api/evals/{run_id}/scorecard``: owner JWT verified on every request, run looked up,
  stored scorecard JSON served; run ids drawn at random from the 10,000;
- ``GET /api/health``: a static JSON answer, NO auth and no database: the floor of the stack.

Prints p50 / p99 latency and requests per second for each, and their ratios. Client and
server share the machine's cores, so absolute numbers understate a dedicated server; the
ratio is the figure to watch.

    python bench/api_load.py [--runs 10000] [--requests 2000] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import NamedTuple

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judge.auth import create_owner_token
from judge.domain.run import Run, parse_run
from judge.domain.scorecard import Scorecard
from judge.judging.backends import JudgeRequest, ScriptedBackend
from judge.pipeline import ScoringOptions, score_run_async
from judge.service.intake import canonical_body
from judge.store.bulk import PrescoredRun, insert_scored_runs
from judge.store.db import make_engine, transaction
from judge.store.migrate import upgrade


class Result(NamedTuple):
    label: str
    n: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int
    bytes_per_response: int

    @property
    def rps(self) -> float:
        return self.n / self.seconds


def template_cards(run: Run, count: int) -> list[Scorecard]:
    """Scorecards with varied, seeded per-pass scores (the same shape real scoring gives)."""
    rng = random.Random(7)

    def verdict(_request: JudgeRequest) -> str:
        score = round(rng.uniform(0.2, 0.95), 2)
        return json.dumps(
            {"score": score, "turns": [1, 3], "rationale": "held its price and explained why"}
        )

    options = ScoringOptions(judge_model="openai/gpt-4o-mini")
    return [
        asyncio.run(score_run_async(run, backend=ScriptedBackend(verdict), options=options))
        for _ in range(count)
    ]


def store_runs(database_url: str, n: int) -> list[str]:
    """Insert ``n`` scored runs through the repository's bulk import, 500 per transaction."""
    engine = make_engine(database_url)
    upgrade(engine)
    base = json.loads((ROOT / "examples" / "haggle.json").read_text())
    cards = template_cards(parse_run(base), 20)
    ids = [f"bench-{i:05d}" for i in range(n)]
    for start in range(0, n, 500):
        items = []
        for i, run_id in enumerate(ids[start : start + 500], start):
            run = Run.model_validate({**base, "run_id": run_id, "seed": i})
            body = canonical_body(run)
            card = cards[i % len(cards)].model_copy(update={"run_id": run_id, "seed": i})
            items.append(PrescoredRun(run, body.text, body.sha256, card, "bench"))
        with transaction(engine) as session:
            insert_scored_runs(session, items=items)
    engine.dispose()
    return ids


def start_server(database_url: str, port: int, secret: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "JUDGE_DATABASE_URL": database_url,
        "JUDGE_JWT_SECRET": secret,
        "JUDGE_WORKERS": "1",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("JUDGE_DEV_MODE", None)
    command = [
        sys.executable,
        "-m",
        "judge",
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env)


async def wait_healthy(base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            try:
                if (await client.get(f"{base}/api/health")).status_code == 200:
                    return
            except httpx.TransportError:
                await asyncio.sleep(0.2)
    raise RuntimeError("the service did not become healthy")


async def load(
    label: str, base: str, paths: list[str], headers: dict[str, str], concurrency: int
) -> Result:
    """Send every path once, ``concurrency`` at a time, timing each request."""
    latencies: list[float] = []
    errors, size = 0, 0
    queue = iter(paths)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(
        base_url=base, headers=headers, limits=limits, timeout=30
    ) as client:

        async def worker() -> None:
            nonlocal errors, size
            for path in queue:
                started = time.perf_counter()
                response = await client.get(path)
                latencies.append((time.perf_counter() - started) * 1000)
                errors += response.status_code != 200
                size = len(response.content)

        began = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - began
    cuts = statistics.quantiles(latencies, n=100)
    return Result(label, len(latencies), elapsed, cuts[49], cuts[98], errors, size)


def report(results: list[Result]) -> None:
    for r in results:
        print(
            f"{r.label:<44} n={r.n:>5}  {r.rps:8.1f} req/s  p50 {r.p50_ms:7.2f} ms  p99 {r.p99_ms:7.2f} ms  "
            f"errors {r.errors}  body {r.bytes_per_response} B"
        )
    card, static = results
    print(
        f"ratio static/scorecard: throughput x{static.rps / card.rps:.2f}, "
        f"p50 x{card.p50_ms / static.p50_ms:.2f} slower, p99 x{card.p99_ms / static.p99_ms:.2f} slower"
    )


async def bench(args: argparse.Namespace, database_url: str, ids: list[str]) -> list[Result]:
    secret = secrets.token_urlsafe(48)
    port = args.port
    base = f"http://127.0.0.1:{port}"
    server = start_server(database_url, port, secret)
    try:
        await wait_healthy(base)
        token = create_owner_token(
            owner="bench", secret=secret, audience="judge", ttl=timedelta(hours=1)
        )
        owner = {"Authorization": f"Bearer {token}"}
        rng = random.Random(11)
        cards = [f"/api/evals/{rng.choice(ids)}/scorecard" for _ in range(args.requests)]
        await load("warm-up", base, cards[:200], owner, args.concurrency)
        await load("warm-up", base, ["/api/health"] * 200, {}, args.concurrency)
        card = await load(
            "GET /api/evals/{run_id}/scorecard (owner JWT)", base, cards, owner, args.concurrency
        )
        static = await load(
            "GET /api/health (static, no auth, no DB)",
            base,
            ["/api/health"] * args.requests,
            {},
            args.concurrency,
        )
        return [card, static]
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=2_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--database-url", default=None, help="default: a fresh SQLite file in a temp dir"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        began = time.perf_counter()
        ids = store_runs(url, args.runs)
        print(
            f"stored {len(ids)} scored runs in {time.perf_counter() - began:.1f}s ({url.split('@')[-1]})"
        )
        report(asyncio.run(bench(args, url, ids)))


if __name__ == "__main__":
    main()
