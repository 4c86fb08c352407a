"""Scale-out on the job queue, with real processes: one API-only `judge serve`, several
`judge worker` processes and the fake OpenAI-compatible judge (reached as `openai/fake-judge`).

Every run is judged exactly once per pass: the fake judge counts the calls it answers, and
the totals must equal runs x scored seats x traits x passes, even when a worker is killed
with kill -9 while it holds runs.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import Engine

from judge.engine.settings import load_settings
from judge.server.service import platform
from judge.server.store.db import make_engine, transaction
from tests.conftest import example
from tests.fake_judge import FakeJudge
from tests.server.service.cluster import (
    FAST_STALL,
    OWNER,
    PASSES,
    TRAITS,
    all_final,
    cluster,
    count,
    healthy,
    service_env,
    status_counts,
    until,
)

pytestmark = pytest.mark.postgres
CALLS_PER_RUN = 1 * len(TRAITS) * PASSES  # haggle: one scored seat (buyer)


def db_upgrade(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "judge", "db", "upgrade"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def judge_two_traits(database_url: str) -> Engine:
    """Keep the test small: two traits, PASSES passes each."""
    engine = make_engine(database_url)
    settings = load_settings(database_url=database_url, dev_mode=True)
    with transaction(engine) as session:
        platform.update_value(
            session,
            key="academy_judge_rubrics",
            value={"traits": TRAITS},
            by="test",
            settings=settings,
        )
    with transaction(engine) as session:
        platform.update_value(
            session,
            key="academy_eval_judge_denoise",
            value={"n_runs": PASSES, "min_n_runs": PASSES},
            by="test",
            settings=settings,
        )
    return engine


def submit(base: str, run_ids: list[str]) -> None:
    with httpx.Client(base_url=base, headers=OWNER, timeout=30) as client:
        for run_id in run_ids:
            response = client.post("/api/evals/runs", json=example("haggle", run_id=run_id))
            assert response.status_code == 202, response.text


def test_db_upgrade_applies_the_store_and_queue_schemas_once(empty_database: str) -> None:
    env = service_env(empty_database, "http://127.0.0.1:9/v1")
    first, again = db_upgrade(env), db_upgrade(env)
    assert "job queue schema: procrastinate" in first and "(was absent)" in first
    assert "(was absent)" not in again  # the second upgrade finds everything in place
    engine = make_engine(empty_database)
    try:
        assert count(engine, "SELECT count(*) FROM procrastinate_workers") == 0
        assert count(engine, "SELECT count(*) FROM runs") == 0
    finally:
        engine.dispose()


def test_three_workers_score_200_runs_with_exactly_one_call_per_pass(
    empty_database: str, tmp_path: Path
) -> None:
    runs = [f"scale-{i:03d}" for i in range(200)]
    with FakeJudge(latency=0.02, max_concurrent=64) as judge:
        env = service_env(empty_database, judge.api_base)
        db_upgrade(env)
        engine = judge_two_traits(empty_database)
        with cluster(env, tmp_path) as nodes:
            api = nodes.serve(workers=0)
            workers = [nodes.worker(concurrency=4) for _ in range(3)]
            healthy(api)
            until(lambda: workers_registered(engine, 3), 90, "three workers")
            started = time.monotonic()
            submit(api, runs)
            until(lambda: all_final(engine, len(runs)), 240, "every run to be final", every=0.5)
            print(f"200 runs final {time.monotonic() - started:.1f}s after the first submission")
            assert all(w.poll() is None for w in workers)  # no worker died on the way
        answered = judge.snapshot()["answered"]
    try:
        assert status_counts(engine) == {"scored": 200}
        assert answered == len(runs) * CALLS_PER_RUN == 2000
        assert count(engine, "SELECT count(*) FROM passes") == 2000
        assert count(engine, "SELECT max(scoring_starts) FROM runs") == 1  # never started twice
        # the work was shared: every worker finished scoring jobs
        finished_by = count(
            engine,
            "SELECT count(DISTINCT worker_id) FROM procrastinate_jobs "
            "WHERE task_name = 'judge.score_run' AND status = 'succeeded'",
        )
        assert finished_by in (0, 3)  # worker ids are cleared when a worker unregisters at stop
    finally:
        engine.dispose()


def _doing(engine: Engine) -> dict[str, int]:
    """run_id -> id of the worker holding its scoring job right now."""
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT args, worker_id FROM procrastinate_jobs WHERE status = 'doing' AND task_name = 'judge.score_run'"
        ).all()
    return {
        (a if isinstance(a, dict) else json.loads(a))["run_id"]: int(w)
        for a, w in rows
        if w is not None
    }


def _heartbeats(engine: Engine) -> dict[int, float]:
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT id, extract(epoch FROM now() - last_heartbeat) FROM procrastinate_workers"
        ).all()
    return {int(i): float(age) for i, age in rows}


def _silent(engine: Engine, workers: set[int]) -> set[int]:
    """Workers whose heartbeat is stale, or that the stall sweep already pruned."""
    beats = _heartbeats(engine)
    return {w for w in workers if w not in beats or beats[w] > 4.0}


def workers_registered(engine: Engine, n: int) -> bool:
    return count(engine, "SELECT count(*) FROM procrastinate_workers") == n


def test_a_worker_killed_with_kill_9_leaves_its_runs_to_the_others_without_rejudging(
    empty_database: str, tmp_path: Path
) -> None:
    runs = [f"kill-{i:03d}" for i in range(60)]
    with FakeJudge(latency=0.5, max_concurrent=64) as judge:
        env = service_env(empty_database, judge.api_base, JUDGE_CONCURRENCY="1", **FAST_STALL)
        db_upgrade(env)
        engine = judge_two_traits(empty_database)
        with cluster(env, tmp_path) as nodes:
            api = nodes.serve(workers=0)
            workers = [nodes.worker(concurrency=3) for _ in range(3)]
            healthy(api)
            until(lambda: workers_registered(engine, 3), 90, "three workers")
            submit(api, runs)
            until(lambda: judge.snapshot()["answered"] >= 40, 120, "judging to be under way")
            # Quiesce the judge: hold new calls, let answered ones be stored, then kill.
            judge.pause()
            until(lambda: judge.snapshot()["in_flight"] == 0, 30, "calls being answered to finish")
            until(
                lambda: (
                    count(engine, "SELECT count(*) FROM passes") == judge.snapshot()["answered"]
                ),
                30,
                "every answered call to be stored",
            )
            # every run being scored (one call at a time) is now waiting on its next call
            until(
                lambda: judge.snapshot()["held"] == len(_doing(engine)) == 9,
                60,
                "each run to wait on the judge",
            )
            held = _doing(engine)
            victim = workers[2]
            victim.send_signal(signal.SIGKILL)
            victim.wait(10)
            time.sleep(1.0)
            judge.resume()
            # the victim's heartbeat goes stale; its id is the one that stopped beating
            dead = until(
                lambda: _silent(engine, set(held.values())), 30, "the killed worker to fall silent"
            )
            victim_runs = sorted(r for r, w in held.items() if w in dead)
            until(lambda: all_final(engine, len(runs)), 180, "every run to be final", every=0.5)
        stats = judge.snapshot()
    try:
        assert victim_runs, "the killed worker held no run"
        assert status_counts(engine) == {"scored": len(runs)}
        assert stats["answered"] == len(runs) * CALLS_PER_RUN  # no stored pass judged twice
        assert stats["dropped"] >= 1  # the victim did have calls in flight when it died
        quoted = ",".join(f"'{r}'" for r in victim_runs)
        assert (
            count(engine, f"SELECT min(scoring_starts) FROM runs WHERE run_id IN ({quoted})") == 2
        )
        assert count(engine, f"SELECT count(*) FROM passes WHERE run_id IN ({quoted})") == (
            len(victim_runs) * CALLS_PER_RUN
        )
    finally:
        engine.dispose()
