"""The executor seam, and the executor the settings pick (docs/deploy.md)."""

from __future__ import annotations

from typing import Literal, Protocol

from sqlalchemy.engine import Engine

from judge.core.errors import ConfigError
from judge.engine.settings import Settings
from judge.server.service.jobs import ScoringWorkers
from judge.server.service.scoring import BackendFactory, resolve_backend
from judge.server.store.db import is_postgres_url

ExecutorKind = Literal["threads", "queue"]


class ScoringExecutor(Protocol):
    """What the API needs from whatever runs scoring jobs."""

    backends: BackendFactory

    def start(self) -> int:
        """Start (and resume unfinished runs); returns how many runs were requeued."""

    def enqueue(self, run_id: str) -> None:
        """Schedule a stored run for scoring (idempotent)."""

    def stop(self, timeout: float = 10.0) -> None:
        """Stop; unfinished runs resume on the next start (here or on another node)."""


def executor_kind(settings: Settings) -> ExecutorKind:
    """The executor the settings pick; ConfigError for the queue or an API-only node on SQLite."""
    postgres = is_postgres_url(settings.database_url)
    kind: ExecutorKind = (
        ("queue" if postgres else "threads") if settings.executor == "auto" else settings.executor
    )
    if kind == "queue" and not postgres:
        raise ConfigError(
            "JUDGE_EXECUTOR=queue needs a PostgreSQL JUDGE_DATABASE_URL; with SQLite, scoring runs "
            "on threads inside `judge serve` (JUDGE_EXECUTOR=threads or auto)"
        )
    if kind == "threads" and settings.workers == 0:
        raise ConfigError(
            "JUDGE_WORKERS=0 (an API-only node) needs the job queue: a PostgreSQL JUDGE_DATABASE_URL "
            "and `judge worker` processes; with threads, give judge serve at least one worker"
        )
    return kind


def make_executor(
    engine: Engine, *, settings: Settings, backends: BackendFactory | None
) -> ScoringExecutor:
    """The executor the settings pick, not yet started."""
    factory = backends or resolve_backend(settings)
    if executor_kind(settings) == "queue":
        # imported here: a SQLite service never loads procrastinate
        from judge.server.service.jobqueue.worker import QueueExecutor

        return QueueExecutor(engine=engine, settings=settings, backends=factory)
    return ScoringWorkers(engine=engine, settings=settings, backends=factory)
