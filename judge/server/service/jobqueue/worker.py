"""The job-queue executor (procrastinate on PostgreSQL) and the worker loop behind ``judge worker``
and ``judge serve --workers N``, started again whenever the database drops it (docs/deploy.md)."""

from __future__ import annotations

import asyncio
import logging
import threading

from procrastinate import App
from sqlalchemy.engine import Engine

from judge.core.domain.status import UNFINISHED_RUN_STATUSES
from judge.engine.settings import Settings
from judge.server.service.fairness import run_priority
from judge.server.service.jobqueue import tasks
from judge.server.service.scoring import BackendFactory
from judge.server.store import job_status
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction

log = logging.getLogger("judge.queue")

RECONNECT_INITIAL_S = 0.5
RECONNECT_MAX_S = 10.0
#: On stop, running jobs get this long to finish; then they are aborted and resume later
#: (on this node's next start or on another worker) from their stored passes.
SHUTDOWN_GRACE_S = 5.0


async def _run_once(app: App, runtime: tasks.Runtime, *, concurrency: int, name: str) -> None:
    async with app.open_async():
        await app.run_worker_async(
            concurrency=concurrency,
            name=name,
            install_signal_handlers=False,
            update_heartbeat_interval=runtime.settings.heartbeat_s,
            stalled_worker_timeout=runtime.settings.stalled_after_s,
            additional_context={tasks.CONTEXT_KEY: runtime},
            fetch_job_polling_interval=2.0,
            shutdown_graceful_timeout=SHUTDOWN_GRACE_S,
        )


async def serve_jobs(
    runtime: tasks.Runtime, *, concurrency: int, name: str, stop: asyncio.Event
) -> None:
    """Run a worker until ``stop`` is set, starting it again whenever the database drops it."""
    wait = RECONNECT_INITIAL_S
    while not stop.is_set():
        app = tasks.build_app(runtime.settings, pool_size=max(2, min(concurrency + 2, 20)))
        worker = asyncio.create_task(_run_once(app, runtime, concurrency=concurrency, name=name))
        stopper = asyncio.create_task(stop.wait())
        await asyncio.wait({worker, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            worker.cancel()  # procrastinate's graceful stop: running jobs finish or are aborted
            await asyncio.gather(worker, return_exceptions=True)
            return
        stopper.cancel()
        failure = worker.exception()
        if failure is None:
            wait = RECONNECT_INITIAL_S
        else:
            log.warning(
                "worker %s lost the database (%s); starting again in %.1fs", name, failure, wait
            )
        await asyncio.sleep(wait)
        wait = min(wait * 2, RECONNECT_MAX_S) if failure is not None else wait


class QueueExecutor:
    """Defers a job per run; with ``JUDGE_WORKERS`` > 0 also runs a worker in this process."""

    def __init__(self, *, engine: Engine, settings: Settings, backends: BackendFactory) -> None:
        self.engine, self.settings, self.backends = engine, settings, backends
        self.app = tasks.build_app(settings, sync=True)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()

    def start(self) -> int:
        """Open the queue, start the in-process worker (if any) and queue runs left without a job."""
        self.app.open()
        if self.settings.workers > 0:
            self._thread = threading.Thread(
                target=self._work, name="judge-queue-worker", daemon=True
            )
            self._thread.start()
            self._ready.wait(30)
        return len([run_id for run_id in self._unfinished() if self._defer(run_id)])

    def _defer(self, run_id: str) -> bool:
        return tasks.defer_score(self.app, run_id, priority=run_priority(self.engine, run_id))

    def _unfinished(self) -> list[str]:
        with transaction(self.engine) as session:
            unfinished = set(run_repo.runs_in_status(session, statuses=UNFINISHED_RUN_STATUSES))
        held = set(job_status.orphan_runs(self.engine, grace_s=0))
        return sorted(unfinished & held)

    def enqueue(self, run_id: str) -> None:
        self._defer(run_id)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the in-process worker (graceful, then its jobs are aborted) and close the queue."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout)
        self.app.close()

    def _work(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        self._ready.set()
        runtime = tasks.Runtime(self.engine, self.settings, self.backends)
        await serve_jobs(runtime, concurrency=self.settings.workers, name="serve", stop=self._stop)
