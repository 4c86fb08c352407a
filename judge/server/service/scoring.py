"""One scoring job, start to finish, against the store. A run is scored under a snapshot of the
options and rubrics taken when it first starts scoring; a resumed run reuses that snapshot and its
stored passes, so nothing paid for is judged again and every pass has the same instrument."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.judging import JudgePass, SeatPassKey
from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.core.domain.status import FINAL_RUN_STATUSES
from judge.core.errors import JudgeError
from judge.engine.judging.panel import Judge
from judge.engine.judging.registry import JudgeSpec, backend_for
from judge.engine.judging.runner import RunnerConfig
from judge.engine.packs import RubricSet
from judge.engine.pipeline import ScoringOptions
from judge.engine.settings import Settings, judge_spec
from judge.server.service import platform, reviews
from judge.server.service.fencing import ClaimedWrite
from judge.server.service.worlds import WorldPolicy
from judge.server.store import eras as era_repo
from judge.server.store import ingest as ingest_repo
from judge.server.store import passes as pass_repo
from judge.server.store import runs as run_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store import spend
from judge.server.store.db import lock_for_write, retry_transient, transaction
from judge.server.store.tables import RunRow

BackendFactory = Callable[[JudgeSpec], Judge]
#: A run whose scoring was started this often without finishing stops being retried: the
#: service died each time (e.g. a judge library crashing the process), and resuming it
#: again would only take the service down again.
MAX_SCORING_STARTS = 5


class ScoringAbandoned(JudgeError):
    """A run kept interrupting the service while it was scored."""


class ScoringSnapshot(BaseModel):
    """How a run is scored, fixed when its scoring starts."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    options: ScoringOptions
    rubrics: RubricSet


class ScoringJob(NamedTuple):
    run: Run
    snapshot: ScoringSnapshot
    done: dict[SeatPassKey, JudgePass]
    world: WorldPolicy
    self_reported: bool


def resolve_backend(settings: Settings) -> BackendFactory:
    """Judge spec -> backend (judge.engine.judging.registry); test judges only in dev mode."""
    return functools.partial(backend_for, dev_mode=settings.dev_mode)


def service_judge(settings: Settings, model: str) -> JudgeSpec:
    """The judge ``model`` names: the service's own unless a resumed run's snapshot names another."""
    if model == settings.model:
        return settings.judge
    return judge_spec(model, dev_mode=settings.dev_mode)


def _snapshot_of(session: Session, row: RunRow, settings: Settings) -> ScoringSnapshot:
    """The run's snapshot, else the effective configuration read from the store now."""
    if row.scoring_snapshot_json is not None:
        return ScoringSnapshot.model_validate_json(row.scoring_snapshot_json)
    rubrics = platform.rubric_set(session, settings=settings)
    judge_model = settings.model
    made_by = ingest_repo.rule_run(session, run_id=row.run_id)
    if made_by is not None:  # the traits and judge its rule named when it made the run
        rubrics = rubrics.only(json.loads(made_by.traits_json))
        judge_model = made_by.judge_model or judge_model
    options = ScoringOptions(
        judge_model=judge_model,
        runner=RunnerConfig.from_settings(settings),
        settings=platform.measurement_settings(session, settings=settings),
        judge_screen=settings.judge_screen,
    )
    return ScoringSnapshot(options=options, rubrics=rubrics)


def claim(engine: Engine, *, run_id: str, settings: Settings) -> ScoringJob | None:
    """Mark a run as scoring and load what is needed to (re)start it; None when final."""
    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id=run_id)
        if row is None or row.status in FINAL_RUN_STATUSES:
            return None
        if (interrupted := run_repo.interrupted_starts(row)) >= MAX_SCORING_STARTS:
            raise ScoringAbandoned(
                f"scoring was interrupted {interrupted} times (the service stopped while scoring "
                "this run); check the service log and the judge, then resubmit under a new run_id"
            )
        snapshot = _snapshot_of(session, row, settings)
        run = run_repo.stored_run(row)
        total = (
            len(run.scored_seats)
            * len(snapshot.rubrics.rubrics)
            * snapshot.options.settings.denoise.policy.max  # adaptive passes: the most there can be
        )
        run_repo.start_scoring(
            session,
            run_id=run_id,
            judge_model=snapshot.options.judge_model,
            passes_total=total,
            snapshot_json=snapshot.model_dump_json(),
        )
        done = pass_repo.stored_passes(session, run_id=run_id)
        world = platform.world_policy(session, settings=settings)
    return ScoringJob(run, snapshot, done, world, run_repo.holds_agent_text(row.submitted_by))


def pass_writer(
    engine: Engine, *, run_id: str, retry_s: float, cancel: threading.Event | None = None
) -> ClaimedWrite:
    """Stores each pass as it finishes, one INSERT that commits by itself, waiting out a locked
    or full store for ``retry_s``; given a job's claim (:class:`fencing.Fence`), the statement
    checks it still stands: False when it no longer does (nothing was stored)."""
    autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    def write(seat: str, judge_pass: JudgePass, claimed: int | None = None) -> bool:
        def once() -> bool:
            with autocommit.connect() as connection:
                return pass_repo.insert_pass(
                    connection, run_id=run_id, seat=seat, judge_pass=judge_pass, claimed=claimed
                )

        return retry_transient(once, budget_s=retry_s, cancel=cancel)

    return write


def self_reported_card(card: Scorecard, row: RunRow | None) -> Scorecard:
    """A run submitted with an agent key is never ranked, whatever its rubrics; nor is a run an
    online evaluation rule made (its own class, ``online``)."""
    if row is not None and run_repo.is_rule_run(row.submitted_by):
        return card.model_copy(update={"ranked_eligible": False, "leaderboard_class": "online"})
    if row is None or not run_repo.is_self_reported(row.submitted_by):
        return card
    return card.model_copy(update={"ranked_eligible": False, "leaderboard_class": "self_reported"})


def _store_card(engine: Engine, card: Scorecard, settings: Settings) -> None:
    with transaction(engine) as session:
        lock_for_write(session, name=platform.PLATFORM_LOCK)
        card = self_reported_card(card, run_repo.get_run(session, run_id=card.run_id))
        if era_repo.get_era(session, era_id=card.measurement_era.era_id) is None:
            era_repo.open_era(
                session,
                era=card.measurement_era,
                opened_by="system:scoring",
                reason="first run scored in it",
            )
        scorecard_repo.add_scorecard(session, card=card)
        record_screens(session, card)
        spend.drop_run_holds(session, run_id=card.run_id)  # its calls are kept: the hold ends
        session.flush()
        reviews.store_views(session, run_id=card.run_id, settings=settings, card=card)


#: The purpose the judge's screen of a seat is kept under in today's spend.
SCREEN_PURPOSE = "judge_screen"


def record_screens(session: Session, card: Scorecard) -> None:
    """Keep each seat's screen call (docs/integrity.md, "The judge's own screen") in today's
    spend, beside the passes, with the card it belongs to."""
    for name, seat in card.seats.items():
        screen = seat.tamper.judge_screen if seat.tamper is not None else None
        if screen is None:
            continue
        spend.record_call(
            session,
            call=screen,
            purpose=SCREEN_PURPOSE,
            run_id=card.run_id,
            seat=name,
            agent_id=seat.agent_id,
        )


def store_scorecard(
    engine: Engine,
    *,
    card: Scorecard,
    settings: Settings,
    retry_s: float = 0.0,
    cancel: threading.Event | None = None,
) -> None:
    """Scores, seat results, ranked eligibility and the card's served views in one
    transaction (all or nothing) that also drops the run's budget holds (docs/service.md,
    "Budget holds"), retried while the store is transiently locked or full."""
    retry_transient(lambda: _store_card(engine, card, settings), budget_s=retry_s, cancel=cancel)
