"""What the owner sees of scoring: runs by status, the oldest waiting run, live workers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine

from judge.core.domain.outputs import Output
from judge.core.domain.status import RUN_STATUSES
from judge.engine.settings import Settings
from judge.server.service.jobqueue.executors import executor_kind
from judge.server.store.job_status import queue_workers, run_counts


class LiveWorker(Output):
    """One job-queue worker as its heartbeat row shows it."""

    worker_id: int
    last_heartbeat: datetime
    seconds_since_heartbeat: float
    alive: bool = Field(description="heartbeat newer than JUDGE_STALLED_AFTER_S")
    runs_held: int = Field(description="scoring jobs this worker is running now")


class QueueStatus(BaseModel):
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
    workers: Sequence[LiveWorker]


def queue_status(engine: Engine, *, settings: Settings) -> QueueStatus:
    """Runs by status, the oldest queued run's wait and (job queue only) the workers."""
    kind = executor_kind(settings)
    counts = run_counts(engine)
    found = queue_workers(engine) if kind == "queue" else []
    stalled = settings.stalled_after_s
    live = [LiveWorker(**w._asdict(), alive=w.seconds_since_heartbeat <= stalled) for w in found]
    return QueueStatus(
        executor=kind,
        **{status: counts.by_status[status] for status in RUN_STATUSES},
        oldest_queued_age_s=counts.oldest_queued_s,
        workers=live,
    )
