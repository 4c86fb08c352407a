"""The procrastinate app of the job queue: the scoring task, one job per run under lock
``run:<run_id>``, and the periodic upkeep (docs/deploy.md, "What the queue guarantees")."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any, NamedTuple, cast

import sqlalchemy as sa
from procrastinate import App, JobContext, PsycopgConnector, RetryStrategy, SyncPsycopgConnector
from procrastinate.exceptions import AlreadyEnqueued, ConnectorException
from procrastinate.jobs import JobDeferrer
from sqlalchemy.engine import Engine

from judge.engine.settings import Settings
from judge.server.service.fairness import PLATFORM_PRIORITY, run_priority
from judge.server.service.jobs import score_stored_run
from judge.server.service.scoring import BackendFactory
from judge.server.store.db import normalise_url
from judge.server.store.job_status import SCORE_TASK, orphan_runs

log = logging.getLogger("judge.tasks")

STALLED_TASK = "judge.retry_stalled"
ORPHANS_TASK = "judge.requeue_orphans"
PRUNE_TASK = "judge.prune_finished_jobs"
#: Finished job rows (the runs themselves are kept for ever) are deleted after this long.
KEEP_FINISHED_JOBS_H = 24
CONTEXT_KEY = "judge"
#: A run stored this recently may still be getting its job from the API node.
ORPHAN_GRACE_S = 30
#: Store outages: the job is retried with growing waits (2, 4, 8 ... s) for about 10 minutes.
STORE_RETRY = RetryStrategy(
    max_attempts=10,
    exponential_wait=2,
    retry_exceptions=[sa.exc.OperationalError, sa.exc.InterfaceError],
)


class Runtime(NamedTuple):
    """What a job needs, handed to the worker as its additional context."""

    engine: Engine
    settings: Settings
    backends: BackendFactory


def conninfo(database_url: str) -> str:
    """A libpq URL for psycopg from the store's SQLAlchemy URL."""
    url = sa.engine.make_url(normalise_url(database_url)).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def sweep_cron(settings: Settings) -> str:
    """Every few seconds (about the heartbeat interval, 1-30 s), as a cron with seconds."""
    every = max(1, min(30, round(settings.heartbeat_s)))
    return f"*/{every} * * * * *"


def runtime_of(context: JobContext) -> Runtime:
    return cast(Runtime, context.additional_context[CONTEXT_KEY])


async def score_run_task(context: JobContext, run_id: str) -> None:
    """Score one run (store outages propagate, so procrastinate retries the job)."""
    rt = runtime_of(context)
    await score_stored_run(rt.engine, run_id=run_id, settings=rt.settings, backends=rt.backends)


async def retry_stalled(context: JobContext, timestamp: int) -> None:
    """Requeue the jobs of workers whose heartbeat is stale, then forget those workers."""
    settings = runtime_of(context).settings
    manager = context.app.job_manager
    for job in await manager.get_stalled_jobs(seconds_since_heartbeat=settings.stalled_after_s):
        try:
            await manager.retry_job(job)
        except ConnectorException as exc:  # finished or retried meanwhile (another sweep)
            log.info("stalled job %s was not retried: %s", job.id, exc)
            continue
        log.warning(
            "job %s (%s %s) of a dead worker is retried", job.id, job.task_name, job.task_kwargs
        )
    await manager.prune_stalled_workers(settings.stalled_after_s)


async def requeue_orphans(context: JobContext, timestamp: int) -> None:
    rt = runtime_of(context)
    runs = await asyncio.to_thread(partial(orphan_runs, rt.engine, grace_s=ORPHAN_GRACE_S))
    for run_id in runs:
        log.warning("run %s had no scoring job; it is queued again", run_id)
        priority = await asyncio.to_thread(run_priority, rt.engine, run_id)
        await defer_score_async(context.app, run_id, priority=priority)


async def prune_finished_jobs(context: JobContext, timestamp: int) -> None:
    """Delete succeeded jobs (scoring and upkeep) older than a day; failed ones stay for a look."""
    await context.app.job_manager.delete_old_jobs(nb_hours=KEEP_FINISHED_JOBS_H)


def _score_job(app: App, run_id: str, priority: int) -> JobDeferrer:
    lock = f"run:{run_id}"
    return app.configure_task(name=SCORE_TASK, lock=lock, queueing_lock=lock, priority=priority)


def defer_score(app: App, run_id: str, *, priority: int = PLATFORM_PRIORITY) -> bool:
    """Queue a run's scoring job at its fair-share ``priority``; False when one already waits."""
    try:
        _score_job(app, run_id, priority).defer(run_id=run_id)
    except AlreadyEnqueued:
        return False
    return True


async def defer_score_async(app: App, run_id: str, *, priority: int = PLATFORM_PRIORITY) -> bool:
    try:
        await _score_job(app, run_id, priority).defer_async(run_id=run_id)
    except AlreadyEnqueued:
        return False
    return True


def build_app(settings: Settings, *, sync: bool = False, pool_size: int = 4) -> App:
    """The queue app over the store's database; ``sync`` for nodes that only defer jobs."""
    pool: dict[str, Any] = {
        "conninfo": conninfo(settings.database_url),
        "min_size": 1,
        "max_size": pool_size,
    }
    connector = SyncPsycopgConnector(**pool) if sync else PsycopgConnector(**pool)
    app = App(connector=connector)
    app.task(name=SCORE_TASK, pass_context=True, retry=STORE_RETRY)(score_run_task)
    sweep, hourly = sweep_cron(settings), "17 * * * *"
    for name, func, cron in (
        (STALLED_TASK, retry_stalled, sweep),
        (ORPHANS_TASK, requeue_orphans, sweep),
        (PRUNE_TASK, prune_finished_jobs, hourly),
    ):
        app.periodic(cron=cron)(app.task(name=name, pass_context=True, queueing_lock=name)(func))
    return app
