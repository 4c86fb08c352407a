"""Scale-out benchmark: judge calls per second with 1, 2 and 4 `judge worker` processes.

Real processes on one PostgreSQL database (an API-only `judge serve --workers 0` and the
workers), judging as `openai/fake-judge` (the product's light client for OpenAI-compatible
servers, judge.engine.judging.providers.openai_compatible; `JUDGE_OPENAI_CLIENT=litellm` measures litellm instead)
against the fake OpenAI-compatible judge of the tests: a fixed latency (0.5 s) and at most 32
calls answered at once, so the judge itself allows at most 32 / 0.5 = 64 calls per second.
Runs use the product's defaults (12 traits x 5 passes).

Printed per worker count: judge calls per second, the ratio to that judge limit, and the
service's CPU milliseconds per judge call (user+system time of the API and worker processes
while the runs are scored, from /proc, divided by the calls answered). The last line is::

    calls_per_s=<x> ratio_to_judge_limit=<y> cpu_ms_per_call=<z>     (for the largest fleet)

Usage (PostgreSQL admin URL in JUDGE_BENCH_POSTGRES_URL or JUDGE_TEST_POSTGRES_URL)::

    nice -n 10 python bench/scale_out.py [--runs 30] [--workers 1 2 4]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import pg
from tests.conftest import example
from tests.fake_judge import FakeJudge
from tests.server.service.cluster import all_final, cluster, healthy, service_env, until
from tests.server.service.test_scale_out import db_upgrade

LATENCY_S = 0.5
JUDGE_SLOTS = 32
JUDGE_LIMIT = JUDGE_SLOTS / LATENCY_S
RUNS_PER_WORKER = 4  # runs each worker scores at once
CALLS_PER_RUN = 8  # judge calls in flight per run (JUDGE_CONCURRENCY)
TICKS = os.sysconf("SC_CLK_TCK")


class Result(NamedTuple):
    workers: int
    calls: int
    seconds: float
    cpu_s: float

    @property
    def calls_per_s(self) -> float:
        return self.calls / self.seconds

    @property
    def cpu_ms_per_call(self) -> float:
        return 1000 * self.cpu_s / self.calls


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of live processes (their own, not their children's)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def measure(admin: str, workers: int, runs: int, logs: Path) -> Result:
    import httpx

    from tests.server.service.cluster import OWNER

    server = pg.PostgresServer(admin)
    name = pg.create_database(server)
    try:
        with FakeJudge(latency=LATENCY_S, max_concurrent=JUDGE_SLOTS) as judge:
            env = service_env(
                server.sqlalchemy_url(name), judge.api_base, JUDGE_CONCURRENCY=str(CALLS_PER_RUN)
            )
            db_upgrade(env)
            with cluster(env, logs) as nodes:
                api = nodes.serve(workers=0)
                procs = [nodes.worker(concurrency=RUNS_PER_WORKER) for _ in range(workers)]
                healthy(api)
                from judge.server.store.db import make_engine

                engine = make_engine(server.sqlalchemy_url(name))
                until(lambda: _registered(engine) == workers, 120, f"{workers} workers")
                pids = [p.pid for p in nodes.processes]
                cpu_before, started = cpu_seconds(pids), time.monotonic()
                with httpx.Client(base_url=api, headers=OWNER, timeout=30) as client:
                    for i in range(runs):
                        client.post(
                            "/api/evals/runs", json=example("haggle", run_id=f"bench-{i:04d}")
                        )
                until(lambda: all_final(engine, runs), 1800, "every run to be final", every=0.2)
                seconds, cpu = time.monotonic() - started, cpu_seconds(pids) - cpu_before
                engine.dispose()
                del procs
            calls = judge.snapshot()["answered"]
    finally:
        pg.drop_database(server, name)
    return Result(workers, calls, seconds, cpu)


def _registered(engine: object) -> int:
    from tests.server.service.cluster import count

    return count(engine, "SELECT count(*) FROM procrastinate_workers")  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--runs", type=int, default=30, help="runs per measurement (60 judge calls each)"
    )
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--smoke", action="store_true", help="2 runs, one worker (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.workers = 2, [1]
    admin = os.environ.get("JUDGE_BENCH_POSTGRES_URL") or os.environ.get("JUDGE_TEST_POSTGRES_URL")
    if not admin:
        if not args.smoke:
            sys.exit(
                "set JUDGE_BENCH_POSTGRES_URL (or JUDGE_TEST_POSTGRES_URL) to a PostgreSQL admin URL"
            )
        with pg.throwaway_cluster() as cluster:  # the smoke starts its own
            if cluster is None:
                sys.exit("--smoke: no PostgreSQL binaries found (apt-get install postgresql)")
            bench(args, cluster.url)
    else:
        bench(args, admin)


def bench(args: argparse.Namespace, admin: str) -> None:
    admin = admin.replace("postgresql://", "postgresql+psycopg://", 1)
    logs = Path(os.environ.get("JUDGE_BENCH_LOGS", "/tmp/judge-bench-scale-out"))
    logs.mkdir(parents=True, exist_ok=True)
    print(
        f"fake judge: {LATENCY_S}s latency, {JUDGE_SLOTS} calls at once -> limit {JUDGE_LIMIT:.0f} calls/s; "
        f"{args.runs} runs x 60 calls; load average before: {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'workers':>7} {'calls':>6} {'seconds':>8} {'calls/s':>8} {'ratio':>6} {'cpu ms/call':>11}"
    )
    results = []
    for workers in args.workers:
        r = measure(admin, workers, args.runs, logs)
        results.append(r)
        print(
            f"{r.workers:>7} {r.calls:>6} {r.seconds:>8.1f} {r.calls_per_s:>8.1f} "
            f"{r.calls_per_s / JUDGE_LIMIT:>6.2f} {r.cpu_ms_per_call:>11.2f}",
            flush=True,
        )
    last = results[-1]
    print(
        f"calls_per_s={last.calls_per_s:.1f} ratio_to_judge_limit={last.calls_per_s / JUDGE_LIMIT:.2f} "
        f"cpu_ms_per_call={last.cpu_ms_per_call:.2f}"
    )


if __name__ == "__main__":
    main()
