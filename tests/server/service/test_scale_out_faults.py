"""Scale-out under faults, with real processes: PostgreSQL restarted while workers score
(on a private cluster, never the shared server), and two `judge serve` replicas started
together on one empty database."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests import pg
from tests.conftest import example
from tests.fake_judge import FakeJudge
from tests.server.service.cluster import (
    FAST_STALL,
    OWNER,
    all_final,
    cluster,
    count,
    healthy,
    service_env,
    status_counts,
    until,
)
from tests.server.service.test_scale_out import (
    CALLS_PER_RUN,
    db_upgrade,
    judge_two_traits,
    submit,
    workers_registered,
)

pytestmark = pytest.mark.postgres


@contextmanager
def private_server() -> Iterator[pg.ThrowawayCluster]:
    """A throwaway cluster this test may stop and start at will."""
    with pg.throwaway_cluster(options="-c max_connections=200") as server:
        if server is None:
            pytest.skip(pg.NO_POSTGRES)
        yield server


def test_workers_reconnect_after_a_postgresql_restart_and_finish_every_run(tmp_path: Path) -> None:
    runs = [f"restart-{i:03d}" for i in range(60)]
    with private_server() as server, FakeJudge(latency=0.2) as judge:
        admin = pg.PostgresServer(server.url)
        database_url = admin.sqlalchemy_url(pg.create_database(admin))
        env = service_env(database_url, judge.api_base, JUDGE_CONCURRENCY="1", **FAST_STALL)
        db_upgrade(env)
        engine = judge_two_traits(database_url)
        with cluster(env, tmp_path) as nodes:
            api = nodes.serve(workers=0)
            workers = [nodes.worker(concurrency=3) for _ in range(2)]
            healthy(api)
            until(lambda: workers_registered(engine, 2), 90, "two workers")
            submit(api, runs)
            until(lambda: judge.snapshot()["answered"] >= 40, 120, "judging to be under way")
            server.stop()
            answered_at_outage = judge.snapshot()["answered"]
            time.sleep(3)
            server.start()
            engine.dispose()
            until(lambda: all_final(engine, len(runs)), 240, "every run to be final", every=0.5)
            assert all(w.poll() is None for w in workers)  # they reconnected instead of exiting
            assert httpx.get(f"{api}/api/evals/queue", headers=OWNER, timeout=10).json()[
                "scored"
            ] == len(runs)
        answered = judge.snapshot()["answered"]
        counts = status_counts(engine)
        engine.dispose()
    assert counts == {"scored": len(runs)}
    assert answered_at_outage < len(runs) * CALLS_PER_RUN  # the restart did fall in the middle
    # a pass answered while the store was down could not be stored and is judged again: at most
    # one call per run then being scored (2 workers x 3 runs, one call at a time)
    assert len(runs) * CALLS_PER_RUN <= answered <= len(runs) * CALLS_PER_RUN + 6


def test_two_replicas_started_together_never_judge_a_run_twice(
    empty_database: str, tmp_path: Path
) -> None:
    runs = [f"replica-{i:03d}" for i in range(40)]
    with FakeJudge(latency=0.05) as judge:
        env = service_env(empty_database, judge.api_base)
        with cluster(env, tmp_path) as nodes:
            first, second = (
                nodes.serve(workers=2),
                nodes.serve(workers=2),
            )  # both migrate the empty database
            healthy(first)
            healthy(second)
            engine = judge_two_traits(empty_database)
            submit(first, runs[0::2])
            submit(second, runs[1::2])
            for run_id in runs[0::2][:5]:  # the same runs again, on the other replica: stored once
                again = httpx.post(
                    f"{second}/api/evals/runs", json=example("haggle", run_id=run_id), headers=OWNER
                )
                assert again.status_code == 200 and again.json()["created"] is False
            until(lambda: all_final(engine, len(runs)), 180, "every run to be final", every=0.5)
        answered = judge.snapshot()["answered"]
    try:
        assert status_counts(engine) == {"scored": len(runs)}
        assert answered == len(runs) * CALLS_PER_RUN
        assert count(engine, "SELECT max(scoring_starts) FROM runs") == 1
        assert count(engine, "SELECT count(*) FROM passes") == len(runs) * CALLS_PER_RUN
    finally:
        engine.dispose()
