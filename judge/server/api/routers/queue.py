"""The scoring queue at a glance (owner)."""

from __future__ import annotations

from judge.server.api.deps import EngineDep, SettingsDep, owner_router
from judge.server.api.models import QueuePublic
from judge.server.service.jobqueue.status import queue_status

router = owner_router("queue")


@router.get("/api/evals/queue", summary="Scoring queue (owner)")
def scoring_queue(engine: EngineDep, settings: SettingsDep) -> QueuePublic:
    """Runs queued / scoring / scored / not_scored, how long the oldest queued run has waited, and
    the job-queue workers with their last heartbeat (alive: newer than `JUDGE_STALLED_AFTER_S`).
    With the in-process executor (SQLite) the worker list is empty."""
    return QueuePublic.model_validate(queue_status(engine, settings=settings), from_attributes=True)
