"""What the job queue's status and metrics read from the store (workers and orphaned runs from
procrastinate's own tables, so on PostgreSQL only)."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from judge.core.domain.status import RUN_STATUSES
from judge.server.store.tables import as_utc, utcnow

#: The procrastinate task that scores a run (the name jobs are stored under: never changed).
SCORE_TASK = "judge.score_run"


class RunCounts(NamedTuple):
    by_status: dict[str, int]
    oldest_queued_s: float | None


class QueueWorker(NamedTuple):
    """One job-queue worker as its heartbeat row shows it."""

    worker_id: int
    last_heartbeat: datetime
    seconds_since_heartbeat: float
    runs_held: int


_COUNTS = sa.text("SELECT status, count(*), min(created_at) FROM runs GROUP BY status")


def run_counts(engine: Engine) -> RunCounts:
    """How many runs are in each status, and how long the oldest queued one has waited."""
    with engine.connect() as connection:
        rows = connection.execute(_COUNTS).all()
    counts: dict[str, int] = dict.fromkeys(RUN_STATUSES, 0)
    oldest: float | None = None
    for status, n, first in rows:
        counts[str(status)] = int(n)
        if status == "queued" and first is not None:
            created = first if isinstance(first, datetime) else datetime.fromisoformat(str(first))
            oldest = max(0.0, (utcnow() - as_utc(created)).total_seconds())
    return RunCounts(counts, oldest)


_WORKERS = sa.text(
    """
    SELECT w.id, w.last_heartbeat, extract(epoch FROM now() - w.last_heartbeat),
           (SELECT count(*) FROM procrastinate_jobs j
             WHERE j.worker_id = w.id AND j.status = 'doing' AND j.task_name = :task)
      FROM procrastinate_workers w ORDER BY w.last_heartbeat DESC
    """
)


def queue_workers(engine: Engine) -> list[QueueWorker]:
    """The workers with a heartbeat row, newest heartbeat first, with the runs each holds."""
    with engine.connect() as connection:
        rows = connection.execute(_WORKERS, {"task": SCORE_TASK}).all()
    return [
        QueueWorker(int(i), beat, round(float(age), 3), int(held)) for i, beat, age, held in rows
    ]


_ORPHANS = sa.text(
    """
    SELECT r.run_id FROM runs r
     WHERE r.status IN ('queued', 'scoring')
       AND r.updated_at < now() - make_interval(secs => :grace)
       AND NOT EXISTS (SELECT 1 FROM procrastinate_jobs j
                        WHERE j.lock = 'run:' || r.run_id AND j.status IN ('todo', 'doing'))
     ORDER BY r.created_at
     LIMIT 1000
    """
)


def orphan_runs(engine: Engine, *, grace_s: float) -> list[str]:
    """Unfinished runs, unchanged for ``grace_s``, with no job waiting or running for them."""
    with engine.connect() as connection:
        return [str(r) for r in connection.execute(_ORPHANS, {"grace": grace_s}).scalars()]
