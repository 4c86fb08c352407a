"""One scoring job, start to finish, against the store.

A run is scored under a snapshot of the options and rubrics taken when it first starts
scoring; a resumed run reuses that snapshot and its stored passes, so nothing already paid
for is judged again and every pass of one run was made under the same instrument.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.catalog import RubricSet
from judge.domain.judging import JudgePass
from judge.domain.run import Run
from judge.domain.scorecard import Scorecard
from judge.errors import ConfigError, JudgeError
from judge.judging.backends import JudgeBackend
from judge.judging.embedded import backend_for
from judge.judging.runner import RunnerConfig
from judge.pipeline import OnSeatPass, ScoringOptions, SeatPassKey
from judge.service import platform
from judge.settings import Settings
from judge.store import passes as pass_repo
from judge.store import runs as run_repo
from judge.store import scorecards as scorecard_repo
from judge.store import submissions as era_repo
from judge.store.db import transaction
from judge.store.tables import RunRow

BackendFactory = Callable[[str], JudgeBackend]
FINAL_STATUSES = ("scored", "not_scored")
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


class Job(NamedTuple):
    run: Run
    snapshot: ScoringSnapshot
    done: dict[SeatPassKey, JudgePass]


def resolve_backend(settings: Settings) -> BackendFactory:
    """Model id -> backend; ``scripted/...`` test judges only in dev mode (judge.testing)."""

    def factory(model: str) -> JudgeBackend:
        if model.startswith("scripted/"):
            if not settings.dev_mode:
                raise ConfigError(f"judge model {model!r} is a test hook; it only works with JUDGE_DEV_MODE=1")
            from judge.testing import scripted_backend

            return scripted_backend(model)
        return backend_for(model)

    return factory


def build_snapshot(session: Session, *, settings: Settings) -> ScoringSnapshot:
    """The effective configuration, read from the store now (no restart needed)."""
    runner = RunnerConfig(
        concurrency=settings.concurrency, max_attempts=settings.max_attempts,
        backoff_initial_s=settings.backoff_initial_s,
    )
    options = ScoringOptions(
        judge_model=settings.model, runner=runner,
        settings=platform.measurement_settings(session, settings=settings),
    )
    return ScoringSnapshot(options=options, rubrics=platform.rubric_set(session, settings=settings))


def _snapshot_of(session: Session, row: RunRow, settings: Settings) -> ScoringSnapshot:
    if row.scoring_snapshot_json is not None:
        return ScoringSnapshot.model_validate_json(row.scoring_snapshot_json)
    return build_snapshot(session, settings=settings)


def claim(engine: Engine, *, run_id: str, settings: Settings) -> Job | None:
    """Mark a run as scoring and load what is needed to (re)start it; None when final."""
    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id=run_id)
        if row is None or row.status in FINAL_STATUSES:
            return None
        if row.scoring_starts >= MAX_SCORING_STARTS:
            raise ScoringAbandoned(
                f"scoring was interrupted {row.scoring_starts} times (the service stopped while scoring "
                "this run); check the service log and the judge, then resubmit under a new run_id"
            )
        snapshot = _snapshot_of(session, row, settings)
        run = Run.model_validate_json(row.body_json)
        total = len(run.scored_seats) * len(snapshot.rubrics.rubrics) * snapshot.options.settings.denoise.passes
        run_repo.start_scoring(
            session, run_id=run_id, judge_model=snapshot.options.judge_model,
            passes_total=total, snapshot_json=snapshot.model_dump_json(),
        )
        done = pass_repo.stored_passes(session, run_id=run_id)
    return Job(run, snapshot, done)


def pass_writer(engine: Engine, *, run_id: str) -> OnSeatPass:
    """Store each pass in its own short transaction the moment it finishes."""

    def on_pass(seat: str, judge_pass: JudgePass) -> None:
        with transaction(engine) as session:
            pass_repo.insert_pass(session, run_id=run_id, seat=seat, judge_pass=judge_pass)

    return on_pass


def store_scorecard(engine: Engine, *, card: Scorecard) -> None:
    """Scores, seat results and ranked eligibility in one transaction (all or nothing)."""
    with transaction(engine) as session:
        if era_repo.get_era(session, era_id=card.measurement_era.era_id) is None:
            era_repo.open_era(session, era=card.measurement_era, opened_by="scoring", reason="first run scored in it")
        scorecard_repo.add_scorecard(session, card=card)


def give_up(engine: Engine, *, run_id: str, reason: str) -> None:
    with transaction(engine) as session:
        run_repo.set_run_status(session, run_id=run_id, status="not_scored", reason=reason)
