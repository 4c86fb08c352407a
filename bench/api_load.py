"""Every hot read under concurrent load, as ratios to a static route of the same stack in the
same run, at each store size asked for, on SQLite or PostgreSQL.

Stores scored runs (realistic scorecards: 12 traits x 5 passes with rubric texts, about 42 KB
of JSON each; 20 agents, one scenario) through the repository's bulk import, with the views
a scored run stores (docs/service.md, "Stored scorecard views"), starts the service as its
own process (`python -m judge serve`, `--processes` uvicorn processes), finalizes 20
submissions of 10 runs (the leaderboard), and loads every route from this process over
loopback with httpx, ``--concurrency`` requests in flight on kept-alive connections:

- ``GET /api/health``: a static JSON answer, no auth, no store read of its own: the floor,
  measured in rounds alternating with each route's (``ROUNDS``), so a change in the machine's
  load during the run falls on both; a route's ratios are to the static rounds between its own;
- the owner scorecard, an agent's own-seat scorecard, the owner's run status, the owner's and
  the agent's run lists (first page of 50), the scenario's leaderboard, the console run page.

Prints each route's throughput and p50 / p99 as ratios to the static route, the targets of
docs/deploy.md beside them, and the server's resident memory after the load at each size.
Client and server share the machine's cores, so absolute numbers understate a dedicated
server; the ratios are the figures to watch. Answers are read as they come over the wire
(gzip left compressed), as a load tool would; ``--only scorecard`` measures a subset.

Seeding (about 10 ms a run on two busy cores, so 100,000 runs take minutes, not hours): 20
card templates are scored through the real pipeline (scripted judge) and their views rendered
for real; every other run is a template's card under its own run id, agent and seed, written
through the repository's bulk import (1,000 runs a transaction, multi-row statements), with
the template's views copied under the new ids and their gzip form and ETag computed again the
way the product does (the last run of each batch is rendered for real and compared). Pass
``--database`` to measure a database seeded earlier (``--seed-only``): runs already there are
kept and topped up.

    python bench/api_load.py [--runs 10000 100000] [--store sqlite|postgres] [--smoke]
    python bench/api_load.py --runs 10000 100000 --database URL_10K URL_100K [--seed-only]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import NamedTuple

import httpx
import sqlalchemy as sa
from sqlmodel import Session

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judge.core.domain.run import Run, parse_run
from judge.core.domain.scorecard import Scorecard
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import Settings, load_settings
from judge.server.auth import create_owner_token
from judge.server.service import reviews
from judge.server.service.card_views import all_views
from judge.server.service.intake import canonical_body
from judge.server.service.keys import issue_key
from judge.server.store import scorecards as scorecard_repo
from judge.server.store import views as view_repo
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import make_engine, transaction
from judge.server.store.migrate import upgrade
from judge.server.store.tables import RunRow, utcnow
from judge.server.store.views import RenderedView, ScorecardViewRow, rendered

AGENTS = 20
SUBMITTED_PER_AGENT = 10
SCENARIO = "market-haggle"
#: Targets (issue "Reads at the speed of a static file"; docs/deploy.md).
CARD_THROUGHPUT, CARD_P99, LIST_P99, RSS_GROWTH = 0.7, 1.5, 3.0, 0.10
#: Rounds a route's requests are split into, each after a round of the static route.
ROUNDS = 5


class Result(NamedTuple):
    label: str
    kind: str  # "static", "card" or "list": which target applies
    n: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int
    bytes_per_response: int
    #: The static route measured in the rounds between this route's (None for the static route).
    static: Result | None = None

    @property
    def rps(self) -> float:
        return self.n / self.seconds


class Sample(NamedTuple):
    """One pass over a list of paths."""

    latencies: list[float]
    seconds: float
    errors: int
    size: int


def pooled(label: str, kind: str, samples: list[Sample], static: Result | None = None) -> Result:
    latencies = [ms for s in samples for ms in s.latencies]
    cuts = statistics.quantiles(latencies, n=100)
    seconds = sum(s.seconds for s in samples)
    errors = sum(s.errors for s in samples)
    return Result(
        label, kind, len(latencies), seconds, cuts[49], cuts[98], errors, samples[-1].size, static
    )


class Template(NamedTuple):
    """The views of one run, rendered for real; other runs of its card differ only in ids."""

    run_id: str
    seed: int
    views: list[RenderedView]


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


def agent_of(i: int) -> str:
    return f"agent-{i % AGENTS:02d}"


def prescored(base: dict[str, object], cards: list[Scorecard], i: int) -> PrescoredRun:
    run_id = f"bench-{i:06d}"
    seats = [{**base["seats"][0], "agent_id": agent_of(i)}, base["seats"][1]]  # type: ignore[index]
    run = Run.model_validate({**base, "run_id": run_id, "seed": i, "seats": seats})
    body = canonical_body(run)
    template = cards[i % len(cards)]
    buyer = template.seats["buyer"].model_copy(update={"agent_id": agent_of(i)})
    card = template.model_copy(update={"run_id": run_id, "seed": i, "seats": {"buyer": buyer}})
    # agent-00 submitted its own runs with its key (what the agent's run list shows)
    by = "agent:agent-00" if i % AGENTS == 0 else "bench"
    return PrescoredRun(run, body.text, body.sha256, card, by)


def real_views(session: object, run_id: str, settings: Settings) -> list[RenderedView]:
    card = scorecard_repo.get_scorecard(session, run_id=run_id)  # type: ignore[arg-type]
    assert card is not None
    review = reviews.review_status(session, run_id=run_id, settings=settings)  # type: ignore[arg-type]
    return all_views(card, review)


def moved(view: RenderedView, start: Template, run_id: str, seed: int) -> RenderedView:
    """``view`` of the template's run, as the run ``run_id`` renders it (ids and seed)."""
    body = view.body.replace(f'"{start.run_id}"'.encode(), f'"{run_id}"'.encode())
    body = body.replace(f'"seed":{start.seed},'.encode(), f'"seed":{seed},'.encode())
    return rendered(view.view, body, config_tag=view.config_tag)


def copies(item: PrescoredRun, templates: dict[int, Template]) -> list[RenderedView]:
    """The views scoring would store for ``item``: its template's views with the run's ids,
    gzip form and ETag computed again (:func:`rendered`, as the product does)."""
    run_id, seed = item.run.run_id, item.run.seed or 0
    start = templates[seed % AGENTS]
    return [moved(v, start, run_id, seed) for v in start.views]


def view_rows(item: PrescoredRun, templates: dict[int, Template]) -> list[dict[str, object]]:
    now = utcnow()
    return [
        {"run_id": item.run.run_id, "rendered_at": now, **v._asdict()}
        for v in copies(item, templates)
    ]


def store_views(
    session: Session,
    items: list[PrescoredRun],
    settings: Settings,
    templates: dict[int, Template],
    pool: ThreadPoolExecutor,
) -> None:
    """The views scoring stores: rendered for real once per card template (and the last run of
    each batch, checked against the copy), copied with the run's ids for the others, compressed
    on every core (zlib lets go of the GIL) and inserted in one statement per batch."""
    for item in items:
        run_id, seed = item.run.run_id, item.run.seed or 0
        if seed % AGENTS not in templates:
            templates[seed % AGENTS] = Template(run_id, seed, real_views(session, run_id, settings))
    *rest, last = items
    rows = [r for views in pool.map(lambda i: view_rows(i, templates), rest) for r in views]
    if rows:
        session.execute(sa.insert(ScorecardViewRow), rows)
    views = copies(last, templates)
    assert views == real_views(session, last.run.run_id, settings), "a copied view drifted"
    view_repo.put_views(session, run_id=last.run.run_id, views=views)


def store_runs(database_url: str, start: int, stop: int, batch: int = 1000) -> float:
    """Runs ``start`` to ``stop`` (bulk import, then their views), ``batch`` per transaction;
    returns the seconds it took.

    The card templates are scored again on each call (the scripted passes finish in any
    order, so their scores differ between calls): the views are copied within a call only."""
    began = time.perf_counter()
    templates: dict[int, Template] = {}
    engine = make_engine(database_url)
    upgrade(engine)
    settings = load_settings(database_url=database_url, jwt_secret=secrets.token_urlsafe(48))
    base = json.loads((ROOT / "examples" / "haggle.json").read_text())
    cards = template_cards(parse_run(base), AGENTS)
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for first in range(start, stop, batch):
            items = [prescored(base, cards, i) for i in range(first, min(first + batch, stop))]
            with transaction(engine) as session:
                insert_scored_runs(session, items=items)
                store_views(session, items, settings, templates, pool)
    engine.dispose()
    return time.perf_counter() - began


def agent_key(database_url: str, agent_id: str) -> str:
    engine = make_engine(database_url)
    with transaction(engine) as session:
        key = issue_key(session, agent_id=agent_id, seat="buyer", label="bench")
    engine.dispose()
    return key


def start_server(
    database_url: str, port: int, secret: str, *, processes: int = 1
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "JUDGE_DATABASE_URL": database_url,
        "JUDGE_JWT_SECRET": secret,
        "JUDGE_WORKERS": "1",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("JUDGE_DEV_MODE", None)
    command = [sys.executable, "-m", "judge", "serve", "--port", str(port)]
    command += ["--processes", str(processes), "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def rss_mib(pid: int) -> float:
    """Resident memory of the server and the processes it spawned (Linux /proc), in MiB."""
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        pids += [int(c) for c in (task / "children").read_text().split()]
    total = 0
    for p in pids:
        with contextlib.suppress(FileNotFoundError):
            status = Path(f"/proc/{p}/status").read_text()
            total += int(
                next(ln for ln in status.splitlines() if ln.startswith("VmRSS")).split()[1]
            )
    return total / 1024


async def wait_healthy(base: str, timeout: float = 90.0) -> None:
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
    base: str,
    paths: list[str],
    headers: dict[str, str],
    concurrency: int,
    cookies: dict[str, str] | None = None,
) -> Sample:
    """Send every path once, ``concurrency`` at a time on kept-alive connections. Each answer
    is read as it came over the wire, not decompressed: the load generator shares the server's
    cores, so it does no more work than a load tool such as wrk would."""
    latencies: list[float] = []
    errors, size = 0, 0
    queue = iter(paths)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(
        base_url=base, headers=headers, cookies=cookies, limits=limits, timeout=60
    ) as client:

        async def worker() -> None:
            nonlocal errors, size
            for path in queue:
                started = time.perf_counter()
                async with client.stream("GET", path) as response:
                    body = b"".join([chunk async for chunk in response.aiter_raw()])
                latencies.append((time.perf_counter() - started) * 1000)
                errors += response.status_code != 200
                size = len(body)

        began = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - began
    return Sample(latencies, elapsed, errors, size)


STATIC = "GET /api/health (static)"


class Route(NamedTuple):
    """One hot read: the paths to request and the credential to send."""

    label: str
    kind: str  # "card" or "list": which target applies
    paths: list[str]
    headers: dict[str, str]
    cookies: dict[str, str] | None = None


async def measured(route: Route, base: str, concurrency: int) -> Result:
    """The route and the static route in alternating rounds (``ROUNDS``, fewer for a short
    list), so a change in the machine's load during the run falls on both alike: the route's
    ratios are to the static rounds taken between its own."""
    paths = route.paths
    rounds = max(1, min(ROUNDS, len(paths) // (4 * concurrency)))
    mine: list[Sample] = []
    static: list[Sample] = []
    for r in range(rounds):
        chunk = paths[r * len(paths) // rounds : (r + 1) * len(paths) // rounds]
        static.append(await load(base, ["/api/health"] * len(chunk), {}, concurrency))
        mine.append(await load(base, chunk, route.headers, concurrency, route.cookies))
    return pooled(route.label, route.kind, mine, pooled(STATIC, "static", static))


async def submit_boards(client: httpx.AsyncClient, ids: list[str]) -> None:
    """Finalize one submission of 10 runs per agent: what the leaderboard reads."""
    for a in range(AGENTS):
        mine = [ids[i] for i in range(a, AGENTS * SUBMITTED_PER_AGENT, AGENTS)]
        body = {"submission_id": f"sub-{a:02d}", "scenario_id": SCENARIO, "run_ids": mine}
        body["agent_id"] = agent_of(a)
        made = await client.post("/api/evals/submissions", json=body)
        if made.status_code == 409:  # made at an earlier size
            continue
        assert made.status_code == 201, made.text
        done = await client.post(f"/api/evals/submissions/sub-{a:02d}/finalize", json={})
        assert done.status_code == 200, done.text


class Load(NamedTuple):
    results: list[Result]
    rss_mib: float


async def bench(args: argparse.Namespace, url: str, ids: list[str], key: str) -> Load:
    secret = secrets.token_urlsafe(48)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(url, port, secret, processes=args.processes)
    try:
        await wait_healthy(base)
        token = create_owner_token(
            owner="bench", secret=secret, audience="judge", ttl=timedelta(hours=1)
        )
        owner = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=base, headers=owner, timeout=60) as client:
            await submit_boards(client, ids)
        rng = random.Random(11)
        n, c = args.requests, args.concurrency
        pick = [rng.choice(ids) for _ in range(n)]
        mine = [rng.choice(ids[::AGENTS]) for _ in range(n)]  # agent-00's runs
        agent = {"Authorization": f"Bearer {key}"}
        cookie = {"judge_console": token}
        routes = [
            Route("GET /api/evals/{run_id}/scorecard (owner)", "card", [f"/api/evals/{r}/scorecard" for r in pick], owner),
            Route("GET /api/agent/runs/{run_id}/scorecard", "card", [f"/api/agent/runs/{r}/scorecard" for r in mine], agent),
            Route("GET /api/evals/runs/{run_id} (status)", "card", [f"/api/evals/runs/{r}" for r in pick], owner),
            Route("GET /api/evals/runs?limit=50", "list", ["/api/evals/runs?limit=50"] * n, owner),
            Route("GET /api/agent/runs?limit=50", "list", ["/api/agent/runs?limit=50"] * n, agent),
            Route(f"GET /api/leaderboards/{SCENARIO}", "list", [f"/api/leaderboards/{SCENARIO}"] * n, owner),
            Route("GET /console/runs/{run_id}", "list", [f"/console/runs/{r}" for r in pick], {}, cookie),
        ]  # fmt: skip
        routes = [r for r in routes if any(o in r.label for o in args.only)]
        await load(base, ["/api/health"] * 4 * c, {}, c)
        for route in routes:  # warm every route and connection
            await load(base, route.paths[: 4 * c], route.headers, c, route.cookies)
        results = [await measured(route, base, c) for route in routes]
        return Load(results, rss_mib(server.pid))
    finally:
        server.terminate()
        server.wait(30)


def verdict(r: Result) -> str:
    assert r.static is not None
    rps, p99 = r.rps / r.static.rps, r.p99_ms / r.static.p99_ms
    if r.kind == "card":
        ok = rps >= CARD_THROUGHPUT and p99 <= CARD_P99
        target = f"target >= {CARD_THROUGHPUT}x, p99 <= {CARD_P99}x"
    else:
        ok, target = p99 <= LIST_P99, f"target p99 <= {LIST_P99:g}x"
    return f"[{'ok' if ok else 'MISSED'}: {target}]"


def report(size: int, load_: Load) -> None:
    """Each route, with its ratios to the static rounds between its own, then those rounds."""
    print(f"-- {size} stored runs: server RSS after the load {load_.rss_mib:.0f} MiB")
    for r in load_.results:
        s = r.static
        assert s is not None
        print(
            f"{r.label:<42} {r.rps:7.1f} req/s x{r.rps / s.rps:4.2f}  p50 {r.p50_ms:6.1f} ms "
            f"x{r.p50_ms / s.p50_ms:4.2f}  p99 {r.p99_ms:6.1f} ms x{r.p99_ms / s.p99_ms:4.2f}  "
            f"err {r.errors}  {r.bytes_per_response} B sent  {verdict(r)}"
        )
        print(
            f"{'  static rounds between':<42} {s.rps:7.1f} req/s        p50 {s.p50_ms:6.1f} ms "
            f"       p99 {s.p99_ms:6.1f} ms        err {s.errors}"
        )


def report_rss(sizes: list[int], loads: list[Load]) -> None:
    if len(loads) < 2:
        return
    growth = loads[-1].rss_mib / loads[0].rss_mib - 1
    state = "ok" if growth <= RSS_GROWTH else "MISSED"
    print(
        f"server RSS {loads[0].rss_mib:.0f} MiB at {sizes[0]} runs, {loads[-1].rss_mib:.0f} MiB at "
        f"{sizes[-1]} runs: ratio {loads[-1].rss_mib / loads[0].rss_mib:.3f} ({growth:+.1%}) "
        f"[{state}: target within {RSS_GROWTH:.0%}]"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def database(store: str, tmp: Path) -> Iterator[str]:
    """A fresh SQLite file, or a throwaway PostgreSQL cluster (tests/pg.py) on loopback."""
    if store == "sqlite":
        yield f"sqlite:///{tmp / 'bench.db'}"
        return
    from tests.pg import throwaway_cluster

    with throwaway_cluster() as cluster:
        if cluster is None:
            raise SystemExit(
                "--store postgres: no PostgreSQL binaries found (apt-get install postgresql)"
            )
        yield cluster.url


def stored_count(database_url: str) -> int:
    """How many bench runs the database holds already (ids are given in order from 0)."""
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.connect() as connection:
        runs: sa.Table = RunRow.__table__  # type: ignore[attr-defined]
        query = sa.select(sa.func.count()).where(runs.c.run_id.like("bench-%"))
        count = int(connection.execute(query).scalar_one())
    engine.dispose()
    return count


def fill(url: str, size: int) -> None:
    """Top the database up to ``size`` bench runs (none stored twice)."""
    stored = stored_count(url)
    if stored < size:
        seconds = store_runs(url, stored, size)
        print(f"stored runs {stored}..{size - 1} with their views in {seconds:.0f}s", flush=True)


def measure_all(args: argparse.Namespace, urls: list[str]) -> None:
    """Each size on its database (one database grown through every size when only one is
    given), then the RSS from the smallest size to the largest."""
    loads = []
    for size, url in zip(args.runs, urls * len(args.runs) if len(urls) == 1 else urls, strict=True):
        fill(url, size)
        if args.seed_only:
            continue
        ids = [f"bench-{i:06d}" for i in range(size)]
        loads.append(asyncio.run(bench(args, url, ids, agent_key(url, agent_of(0)))))
        report(size, loads[-1])
    report_rss(args.runs, loads)
    print(f"load avg {os.getloadavg()[0]:.1f} at the end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs", type=int, nargs="+", default=[10_000], help="store sizes, ascending"
    )
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument(
        "--database",
        nargs="+",
        default=[],
        help="existing database URL(s) instead of a fresh one: one for every size, or one grown "
        "through them; bench runs already stored there are kept and topped up",
    )
    parser.add_argument("--seed-only", action="store_true", help="store the runs, measure nothing")
    parser.add_argument("--requests", type=int, default=1_000, help="per route")
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--processes", type=int, default=1, help="judge serve --processes")
    parser.add_argument(
        "--only",
        nargs="+",
        default=[""],
        metavar="TEXT",
        help="measure only the routes whose label holds one of these texts (e.g. scorecard)",
    )
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: that it runs, in seconds")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.requests, args.concurrency = [200, 240], 20, 2
    if args.database and len(args.database) not in (1, len(args.runs)):
        parser.error("--database: give one URL, or one per --runs size")
    print(f"store {args.store}, {args.requests} requests per route, concurrency {args.concurrency}, "
          f"{args.processes} server process(es), load avg {os.getloadavg()[0]:.1f} at start")  # fmt: skip
    if args.database:
        measure_all(args, args.database)
        return
    with (
        tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp,
        database(args.store, Path(tmp)) as url,
    ):
        measure_all(args, [url])


if __name__ == "__main__":
    main()
