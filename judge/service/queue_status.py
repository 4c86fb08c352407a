"""What the owner sees of scoring: runs by status, the oldest waiting run, live workers."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine

from judge.domain.status import RUN_STATUSES
from judge.service.executors import executor_kind
from judge.settings import Settings
from judge.store.tables import as_utc, utcnow


class RunCounts(NamedTuple):
    by_status: dict[str, int]
    oldest_queued_s: float | None


class WorkerPublic(BaseModel):
    model_config = ConfigDict(extra="forbid")

    worker_id: int
    last_heartbeat: datetime
    seconds_since_heartbeat: float
    alive: bool = Field(description="heartbeat newer than JUDGE_STALLED_AFTER_S")
    runs_held: int = Field(description="scoring jobs this worker is running now")


class QueuePublic(BaseModel):
    """Scoring at a glance."""

    model_config = ConfigDict(extra="forbid")

    executor: str = Field(
        description="queue (procrastinate on PostgreSQL) or threads (in judge serve)"
    )
    queued: int
    scoring: int
    scored: int
    not_scored: int
    oldest_queued_age_s: float | None = Field(
        description="seconds the oldest queued run has waited"
    )
    workers: list[WorkerPublic] = Field(description="job-queue workers, newest heartbeat first")


_COUNTS = sa.text("SELECT status, count(*), min(created_at) FROM runs GROUP BY status")


def run_counts(engine: Engine) -> RunCounts:
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
             WHERE j.worker_id = w.id AND j.status = 'doing' AND j.task_name = 'judge.score_run')
      FROM procrastinate_workers w ORDER BY w.last_heartbeat DESC
    """
)


def queue_workers(engine: Engine, *, stalled_after_s: float) -> list[WorkerPublic]:
    with engine.connect() as connection:
        rows = connection.execute(_WORKERS).all()
    return [
        WorkerPublic(
            worker_id=int(i),
            last_heartbeat=beat,
            seconds_since_heartbeat=round(float(age), 3),
            alive=float(age) <= stalled_after_s,
            runs_held=int(held),
        )
        for i, beat, age, held in rows
    ]


def queue_status(engine: Engine, *, settings: Settings) -> QueuePublic:
    kind = executor_kind(settings)
    counts = run_counts(engine)
    workers = (
        queue_workers(engine, stalled_after_s=settings.stalled_after_s) if kind == "queue" else []
    )
    by = counts.by_status
    return QueuePublic(
        executor=kind,
        queued=by["queued"],
        scoring=by["scoring"],
        scored=by["scored"],
        not_scored=by["not_scored"],
        oldest_queued_age_s=counts.oldest_queued_s,
        workers=workers,
    )
