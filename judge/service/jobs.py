"""Background scoring inside the service: worker threads, each with its own event loop.

Submitting a run only queues it; a worker claims it, judges every missing pass (each
stored as it finishes) and stores the scorecard. On start the workers requeue every run
left ``queued`` or ``scoring`` by a previous process, so a restart resumes where it stopped.
On shutdown the running jobs are cancelled and stay ``scoring`` for the next start.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading

from sqlalchemy.engine import Engine
from sqlalchemy.exc import InterfaceError, OperationalError

from judge.checks import find_scenario
from judge.errors import JudgeBackendError, JudgeError
from judge.pipeline import score_run_async
from judge.service.fencing import Fence, ScoringTakenOver
from judge.service.scoring import (
    BackendFactory,
    claim,
    give_up,
    pass_writer,
    resolve_backend,
    store_scorecard,
)
from judge.settings import Settings
from judge.store import runs as run_repo
from judge.store.db import transaction
from judge.telemetry import observed

log = logging.getLogger("judge.jobs")


async def score_one(engine: Engine, *, run_id: str, settings: Settings, backends: BackendFactory) -> None:
    """Score one run; failures become ``not_scored`` with their reason (never lost)."""
    try:
        job = claim(engine, run_id=run_id, settings=settings)
        if job is None:
            return
        fence = Fence(engine, run_id=run_id)
        options = job.snapshot.options
        scenarios = settings.scenarios_dir
        card = await score_run_async(
            job.run, options=options, rubrics=job.snapshot.rubrics, backend=backends(options.judge_model),
            done=job.done, on_pass=observed(fence.guard(pass_writer(engine, run_id=run_id))),
            scenario=find_scenario(job.run.scenario_id, scenarios) if scenarios else None,
            base_dir=scenarios,
        )
        fence.store(lambda: store_scorecard(engine, card=card))
    except (OperationalError, InterfaceError):  # store unreachable: run left as is, the job retries
        raise
    except ScoringTakenOver as exc:  # another worker holds the run now (docs/deploy.md)
        log.warning("%s; this job stops", exc)
    except JudgeBackendError as exc:
        give_up(engine, run_id=run_id, reason=f"the judge could not be used after retries: {exc}")
    except JudgeError as exc:
        give_up(engine, run_id=run_id, reason=str(exc))
    except Exception as exc:  # a bug: recorded on the run and logged with its traceback
        log.exception("scoring run %s failed", run_id)
        give_up(engine, run_id=run_id, reason=f"internal error while scoring: {type(exc).__name__}: {exc}")


class ScoringWorkers:
    """A pool of scoring threads fed by a queue of run ids."""

    def __init__(self, *, engine: Engine, settings: Settings, backends: BackendFactory | None = None) -> None:
        self.engine = engine
        self.settings = settings
        self.backends = backends or resolve_backend(settings)
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._running: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Task[None]]] = {}
        self._threads: list[threading.Thread] = []

    def start(self) -> int:
        """Start the threads and requeue unfinished runs; returns how many were requeued."""
        for n in range(self.settings.workers):
            thread = threading.Thread(target=self._work, name=f"judge-scoring-{n}", daemon=True)
            thread.start()
            self._threads.append(thread)
        with transaction(self.engine) as session:
            unfinished = run_repo.runs_in_status(session, statuses=("queued", "scoring"))
        for run_id in unfinished:
            self.enqueue(run_id)
        return len(unfinished)

    def enqueue(self, run_id: str) -> None:
        """Queue a run once (thread-safe; a run already queued or running is not added again)."""
        with self._lock:
            if run_id in self._pending:
                return
            self._pending.add(run_id)
        self._queue.put(run_id)

    def busy(self) -> int:
        with self._lock:
            return len(self._pending)

    def stop(self, timeout: float = 10.0) -> None:
        """Cancel running jobs (they stay ``scoring`` and resume on the next start)."""
        for _ in self._threads:
            self._queue.put(None)
        with self._lock:
            running = list(self._running.values())
        for loop, task in running:
            loop.call_soon_threadsafe(task.cancel)
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()

    def _work(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            while (run_id := self._queue.get()) is not None:
                self._run(loop, run_id)
        finally:
            loop.close()

    def _run(self, loop: asyncio.AbstractEventLoop, run_id: str) -> None:
        task = loop.create_task(score_one(self.engine, run_id=run_id, settings=self.settings, backends=self.backends))
        with self._lock:
            self._running[run_id] = (loop, task)
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            log.info("scoring of run %s stopped by shutdown; it resumes on the next start", run_id)
        except Exception:  # score_one records failures; this is a store outage
            log.exception("scoring run %s could not be recorded", run_id)
        finally:
            with self._lock:
                self._running.pop(run_id, None)
                self._pending.discard(run_id)
