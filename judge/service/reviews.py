"""Safety review of a run's safety block (owners only): where it stands, recording a decision,
and a requested rescore that keeps the replaced scorecard as an earlier attempt."""

from __future__ import annotations

from typing import NamedTuple

from sqlmodel import Session

from judge.domain.review import (
    SafetyReviewCreate,
    SafetyReviewEntry,
    SafetyReviewPublic,
    SafetyReviewThresholds,
    ScorecardAttemptPublic,
)
from judge.domain.status import FINAL_RUN_STATUSES
from judge.errors import ConflictError, NotFoundError
from judge.scoring.run_summary import flag_reasons, held_for_review, tamper_reasons
from judge.service import platform
from judge.service.intake import visible_run
from judge.settings import Settings
from judge.store import reviews as review_repo
from judge.store import summaries as summary_repo
from judge.store.db import lock_for_write
from judge.store.tables import as_utc

CONFIG_KEY = "console_safety_review"


class Recorded(NamedTuple):
    """A recorded decision; ``requeue`` says the run must be handed to the scoring workers."""

    review: SafetyReviewPublic
    requeue: bool


def thresholds(session: Session, *, settings: Settings) -> SafetyReviewThresholds:
    value = platform.read_value(session, key=CONFIG_KEY, settings=settings).value
    return SafetyReviewThresholds.model_validate(value.model_dump())


def review_status(session: Session, *, run_id: str, settings: Settings) -> SafetyReviewPublic:
    """The run's review state, why it is flagged, every decision and every earlier scorecard."""
    visible_run(session, run_id=run_id, agent=None)
    limits = thresholds(session, settings=settings)
    summary = summary_repo.get_summary(session, run_id=run_id)
    safety_min = summary.safety_min if summary else None
    spread = summary.safety_spread if summary else None
    tampered = summary.tamper_flagged if summary else False
    reasons = flag_reasons(safety_min, spread, limits) + tamper_reasons(tampered)
    state = summary.review_state if summary else "none"
    return SafetyReviewPublic(
        run_id=run_id,
        state=state,
        flagged=bool(reasons),
        held_for_review=held_for_review(tampered, state),
        reasons=reasons,
        safety_min=safety_min,
        safety_spread=spread,
        thresholds=limits,
        attempt=summary.attempt if summary else 1,
        reviews=[
            SafetyReviewEntry(
                decision=r.decision,
                note=r.note,
                reviewed_by=r.reviewed_by,
                reviewed_at=as_utc(r.reviewed_at),
                attempt=r.attempt,
            )
            for r in review_repo.reviews_of(session, run_id=run_id)
        ],
        earlier_scorecards=[
            ScorecardAttemptPublic(
                attempt=a.attempt,
                measurement_era=a.measurement_era,
                archived_at=as_utc(a.archived_at),
                archived_by=a.archived_by,
                url=f"/api/evals/{run_id}/scorecards/{a.attempt}",
            )
            for a in review_repo.attempts_of(session, run_id=run_id)
        ],
    )


def record_review(
    session: Session, *, run_id: str, body: SafetyReviewCreate, by: str, settings: Settings
) -> Recorded:
    """Store a decision (who, when, on which attempt); a rescore also queues the run again.

    Raises:
        NotFoundError: no such run.
        ConflictError: a rescore was asked while the run is still being scored (or was just
            queued again by a concurrent rescore).
    """
    # decisions on one run are taken one at a time: a second concurrent rescore then reads the
    # run already queued again and gets 409, instead of archiving the same attempt twice
    lock_for_write(session, name=f"safety-review:{run_id}")
    run = visible_run(session, run_id=run_id, agent=None)
    rescore = body.decision == "rescore_requested"
    if rescore and run.status not in FINAL_RUN_STATUSES:
        raise ConflictError(
            f"run {run_id!r} is {run.status}; ask for a rescore once its scoring has finished"
        )
    review_repo.add_review(
        session, run_id=run_id, decision=body.decision, note=body.note.strip(), by=by
    )
    session.flush()
    if rescore:
        review_repo.archive_for_rescore(session, run=run, by=by)
    session.flush()
    return Recorded(review_status(session, run_id=run_id, settings=settings), requeue=rescore)


def earlier_scorecard_json(session: Session, *, run_id: str, attempt: int) -> str:
    """A scorecard a rescore replaced, exactly as it was stored."""
    visible_run(session, run_id=run_id, agent=None)
    row = review_repo.get_attempt(session, run_id=run_id, attempt=attempt)
    if row is None:
        raise NotFoundError(f"run {run_id!r} has no earlier scorecard with attempt {attempt}")
    return row.scorecard_json


def with_safety_review(scorecard_json: str, review: SafetyReviewPublic) -> str:
    """The stored owner scorecard with its ``safety_review`` added (no re-parse of the card)."""
    body = scorecard_json.rstrip()
    if not body.endswith("}"):
        raise ValueError("a stored scorecard is a JSON object")
    return f'{body[:-1]},"safety_review":{review.model_dump_json()}}}'
