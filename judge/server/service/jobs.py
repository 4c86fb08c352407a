"""Scoring one stored run, and the in-process executor: worker threads, each with its own event
loop, that queue unfinished runs again on start and hand running ones back on a clean stop."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from functools import partial

from sqlalchemy.engine import Engine

from judge.core.domain.judging import JudgePass
from judge.core.domain.scenario import Scenario
from judge.core.domain.scorecard import Scorecard
from judge.core.domain.status import UNFINISHED_RUN_STATUSES
from judge.core.errors import BudgetExceeded, JudgeBackendError, JudgeError, PermanentJudgeError
from judge.engine.checks import find_scenario
from judge.engine.pipeline import score_run_async, screened
from judge.engine.settings import Settings
from judge.engine.telemetry.annotations import receivers_of, send_scores
from judge.engine.telemetry.prometheus import observe_card, observed
from judge.server.service.budgets import BUDGET_REASON, Renewal, run_guard
from judge.server.service.fairness import FairQueue, run_priority
from judge.server.service.fencing import ClaimedWrite, Fence, ScoringTakenOver
from judge.server.service.scoring import (
    BackendFactory,
    ScoringAbandoned,
    ScoringJob,
    claim,
    pass_writer,
    resolve_backend,
    service_judge,
    store_scorecard,
)
from judge.server.service.worlds import WorldRefusedError, check_world
from judge.server.service.write_behind import WriteBehind
from judge.server.store import runs as run_repo
from judge.server.store import spend
from judge.server.store.db import is_transient, retry_transient, transaction

log = logging.getLogger("judge.jobs")


JUDGE_UNUSABLE = "the judge could not be used after retries"
JUDGE_REFUSED = (
    "the judge refused the call (a permanent error such as an unknown model or a rejected key); "
    "scoring stopped at the first refusal"
)
NOT_SCOREABLE = "the run could not be scored (a scenario or configuration problem); the platform owner can see why"
INTERNAL = "an internal error stopped scoring; the platform owner can see why"


def failure_of(exc: Exception) -> tuple[str, str | None]:
    """The public sentence (no internals) and the owners' detail of a scoring failure."""
    if isinstance(exc, BudgetExceeded):
        return BUDGET_REASON, str(exc)
    if isinstance(exc, PermanentJudgeError):
        return JUDGE_REFUSED, str(exc)
    if isinstance(exc, JudgeBackendError):
        return JUDGE_UNUSABLE, str(exc)
    if isinstance(exc, ScoringAbandoned | WorldRefusedError):
        return str(exc), None  # our own sentences, naming fields only
    if isinstance(exc, JudgeError):
        return NOT_SCOREABLE, str(exc)
    return INTERNAL, f"{type(exc).__name__}: {exc}"


async def score_stored_run(
    engine: Engine,
    *,
    run_id: str,
    settings: Settings,
    backends: BackendFactory,
    cancel: threading.Event | None = None,
) -> None:
    """Score one run; failures become ``not_scored`` with their reason, but a store outage
    past the retries leaves the run as it is, for the workers to pick up again."""
    retry_s, job = settings.store_retry_s, None
    try:
        job = retry_transient(
            lambda: claim(engine, run_id=run_id, settings=settings), budget_s=retry_s, cancel=cancel
        )
        if job is None:
            return
        started_ns = time.time_ns()  # where the run's judge.score span starts
        fence = Fence(engine, run_id=run_id, retry_s=retry_s, cancel=cancel)
        card = await judged(engine, job, fence, settings=settings, backends=backends, cancel=cancel)
        fence.store(
            lambda: store_scorecard(
                engine, card=card, settings=settings, retry_s=retry_s, cancel=cancel
            )
        )
        published(card, job, settings, started_ns=started_ns)
    except ScoringTakenOver as exc:  # another worker holds the run now (docs/deploy.md)
        log.warning("%s; this job stops", exc)
    except Exception as exc:  # noqa: BLE001 - failed() logs it and records the run's fate
        failed(engine, run_id, exc, claimed=job is not None)


async def judged(
    engine: Engine,
    job: ScoringJob,
    fence: Fence,
    *,
    settings: Settings,
    backends: BackendFactory,
    cancel: threading.Event | None,
) -> Scorecard:
    """The claimed run scored, each pass stored as it finishes and all of them before the card
    is returned; a clean shutdown hands the run back, any other stop keeps the paid passes."""
    options, run_id = job.snapshot.options, job.run.run_id
    writer = pass_writer(engine, run_id=run_id, retry_s=settings.store_retry_s, cancel=cancel)
    passes = WriteBehind(observed(fence.guard(renewing(writer, engine, run_id, settings))))
    try:
        # CPU-bound and bounded (JUDGE_SCAN_CPU_S): on a thread, so this loop's other jobs and
        # the queue's heartbeats keep running; an unscannable run is held, not judged
        scan = partial(
            screened,
            job.run,
            options.settings,
            cpu_s=settings.scan_cpu_s,
            agent_submitted=job.self_reported,
        )
        tamper = await asyncio.to_thread(scan)
        card = await score_run_async(
            job.run,
            options=options,
            rubrics=job.snapshot.rubrics,
            backend=backends(service_judge(settings, options.judge_model)),
            done=job.done,
            on_pass=passes,
            scenario=checked_scenario(job, settings),
            base_dir=settings.scenarios_dir,
            guard=partial(run_guard, engine, job.run, settings=settings, cancel=cancel),
            tamper=tamper,
        )
        await passes.drain()  # every pass is stored before the scorecard
    except asyncio.CancelledError:  # a clean shutdown: not a crash (writes under way finish)
        release(engine, run_id)
        raise
    except BaseException:
        await passes.settle()  # the passes paid for are stored before the run is given up
        raise
    finally:
        passes.close()
    return card


def renewing(
    write: ClaimedWrite,
    engine: Engine,
    run_id: str,
    settings: Settings,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> ClaimedWrite:
    """``write``, that also keeps the run's budget holds alive after each pass it stores
    (:class:`budgets.Renewal`): a run judging longer than JUDGE_BUDGET_HOLD_S keeps its
    estimate held (docs/service.md, "Budget holds")."""
    renew = Renewal(engine, settings, run_id=run_id, clock=clock)

    def write_and_renew(seat: str, judge_pass: JudgePass, claimed: int | None = None) -> bool:
        stored = write(seat, judge_pass, claimed)
        if stored:
            renew()
        return stored

    return write_and_renew


def checked_scenario(job: ScoringJob, settings: Settings) -> Scenario | None:
    """The run's scenario, when the service has it, once the run's world passed the policy."""
    folder = settings.scenarios_dir
    scenario = find_scenario(job.run.scenario_id, folder) if folder else None
    if scenario is not None:
        check_world(job.run, policy=job.world, self_reported=job.self_reported)
    return scenario


def published(
    card: Scorecard, job: ScoringJob, settings: Settings, *, started_ns: int | None = None
) -> None:
    """The stored card counted on ``/metrics`` and queued for the operator's receivers: the
    OTLP collector, Phoenix and Langfuse, whichever are on (docs/integrations.md)."""
    observe_card(card)
    # an agent's own submission may not place its scores in a trace or span it names
    run = job.run
    trace_id, span_id = (None, None) if job.self_reported else (run.trace_id, run.span_id)
    receivers = receivers_of(settings)
    send_scores(card, receivers, trace_id=trace_id, span_id=span_id, started_ns=started_ns)


def failed(engine: Engine, run_id: str, exc: Exception, *, claimed: bool) -> None:
    """Record why scoring stopped: ``not_scored``, unless the store is out (picked up again)."""
    if is_transient(exc):
        log.warning(
            "store unavailable while scoring run %s; it is picked up again later: %s", run_id, exc
        )
        if claimed:
            release(engine, run_id)
        return
    if not isinstance(exc, JudgeError):
        log.exception("scoring run %s failed", run_id)
    reason, detail = failure_of(exc)
    with transaction(engine) as session:  # reason for whoever may see the run, detail for owners
        run_repo.set_run_status(
            session, run_id=run_id, status="not_scored", reason=reason, detail=detail
        )
        # the passes it made count instead of its estimate
        spend.drop_run_holds(session, run_id=run_id)


def release(engine: Engine, run_id: str) -> None:
    """Hand a run back after a clean stop, uncounted as a crash (best effort: the store may be out)."""
    try:
        with transaction(engine) as session:
            run_repo.end_scoring_cleanly(session, run_id=run_id)
            # the resumed run holds its estimate afresh
            spend.drop_run_holds(session, run_id=run_id)
    except Exception as exc:
        if not is_transient(exc):
            raise
        log.warning("could not record the clean stop of run %s: %s", run_id, exc)


class ScoringWorkers:
    """A pool of scoring threads fed by a fair queue of run ids (``judge.server.service.fairness``)."""

    def __init__(
        self, *, engine: Engine, settings: Settings, backends: BackendFactory | None = None
    ) -> None:
        self.engine, self.settings = engine, settings
        self.backends = backends or resolve_backend(settings)
        self._queue = FairQueue()
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._running: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Task[None]]] = {}
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()

    def start(self) -> int:
        """Start the threads and requeue unfinished runs; returns how many were requeued."""
        self._queue.reopen()
        for n in range(self.settings.workers):
            thread = threading.Thread(target=self._work, name=f"judge-scoring-{n}", daemon=True)
            thread.start()
            self._threads.append(thread)
        unfinished = self.requeue_unfinished()
        self._stopping.clear()
        threading.Thread(target=self._sweep, name="judge-scoring-sweep", daemon=True).start()
        return unfinished

    def requeue_unfinished(self) -> int:
        """Queue every run left queued or scoring that is not queued or running here."""
        with transaction(self.engine) as session:
            unfinished = run_repo.runs_in_status(session, statuses=UNFINISHED_RUN_STATUSES)
        for run_id in unfinished:
            self.enqueue(run_id)
        return len(unfinished)

    def _sweep(self) -> None:
        """Pick up runs a store outage left behind, once the store answers again."""
        while not self._stopping.wait(self.settings.store_sweep_s):
            try:
                self.requeue_unfinished()
            except Exception as exc:
                if not is_transient(exc):
                    log.exception("the scoring sweep failed")

    def enqueue(self, run_id: str) -> None:
        """Queue a run once (thread-safe; a run already queued or running is not added again)."""
        with self._lock:
            if run_id in self._pending:
                return
            self._pending.add(run_id)
        try:
            priority = run_priority(self.engine, run_id)
        except Exception:
            with self._lock:
                self._pending.discard(run_id)  # the sweep queues it again once the store answers
            raise
        self._queue.put(run_id, priority)

    def stop(self, timeout: float = 10.0) -> None:
        """Cancel running jobs: they stay ``scoring`` and resume, uncounted, on the next start."""
        self._stopping.set()
        self._queue.close()
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
            loop.run_until_complete(loop.shutdown_asyncgens())  # closes the judge client's session
            loop.close()

    def _run(self, loop: asyncio.AbstractEventLoop, run_id: str) -> None:
        job = score_stored_run(
            self.engine,
            run_id=run_id,
            settings=self.settings,
            backends=self.backends,
            cancel=self._stopping,
        )
        task = loop.create_task(job)
        with self._lock:
            self._running[run_id] = (loop, task)
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            log.info("scoring of run %s stopped by shutdown; it resumes on the next start", run_id)
        except Exception:  # score_stored_run records failures; this is a store outage
            log.exception("scoring run %s could not be recorded", run_id)
        finally:
            with self._lock:
                self._running.pop(run_id, None)
                self._pending.discard(run_id)
