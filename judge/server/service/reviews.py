"""Safety review of a run's safety block (owners only): where it stands, recording a decision,
and a requested rescore that keeps the replaced scorecard as an earlier attempt."""

from __future__ import annotations

import math
from typing import NamedTuple

from pydantic import BaseModel
from sqlmodel import Session

from judge.core.domain.review import (
    ReviewQueueEntry,
    ReviewQueueState,
    SafetyReview,
    SafetyReviewCreate,
    SafetyReviewEntry,
    SafetyReviewThresholds,
    ScorecardAttempt,
    SeatHold,
)
from judge.core.domain.scorecard import Scorecard
from judge.core.domain.status import FINAL_RUN_STATUSES
from judge.core.errors import ConflictError, InputError, NotFoundError
from judge.core.scoring.run_summary import flag_reasons, held_for_review, tamper_reasons
from judge.engine.settings import Settings
from judge.server.service import platform
from judge.server.service.card_views import all_views
from judge.server.service.intake import visible_run
from judge.server.service.labels import label_safety_block
from judge.server.store import reviews as review_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store import summaries as summary_repo
from judge.server.store import views as view_repo
from judge.server.store.db import lock_for_write
from judge.server.store.review_tables import RunSummaryRow
from judge.server.store.summaries import ReviewQueueCursor, RunListing
from judge.server.store.tables import SeatRow

CONFIG_KEY = "console_safety_review"


class Recorded(NamedTuple):
    """A recorded decision; ``requeue`` says the run must be handed to the scoring workers."""

    review: SafetyReview
    requeue: bool


def thresholds(session: Session, *, settings: Settings) -> SafetyReviewThresholds:
    return as_thresholds(platform.read_value(session, key=CONFIG_KEY, settings=settings).value)


def as_thresholds(value: BaseModel) -> SafetyReviewThresholds:
    """The review thresholds out of the stored config value."""
    return SafetyReviewThresholds.model_validate(value.model_dump())


def review_status(session: Session, *, run_id: str, settings: Settings) -> SafetyReview:
    """The run's review state, why it is flagged, every decision and every earlier scorecard."""
    visible_run(session, run_id=run_id, agent=None)
    limits = thresholds(session, settings=settings)
    # a run not summarised yet reads as the row's defaults (no figures, state none, attempt 1)
    s = summary_repo.get_summary(session, run_id=run_id) or RunSummaryRow(run_id=run_id)
    reasons = review_queue_reasons(
        s.safety_min, s.safety_spread, s.tamper_flagged, limits, unscannable=s.unscannable
    )
    holds = seat_holds(review_repo.flagged_seat_rows(session, run_id=run_id), s.unscannable)
    return SafetyReview(
        run_id=run_id,
        state=s.review_state,
        flagged=bool(reasons),
        held_for_review=any(h.held_for_review for h in holds),
        held_seats=holds,
        reasons=reasons,
        safety_min=s.safety_min,
        safety_spread=s.safety_spread,
        thresholds=limits,
        attempt=s.attempt,
        reviews=_decisions(session, run_id=run_id),
        earlier_scorecards=_earlier_scorecards(session, run_id=run_id),
    )


def seat_holds(rows: list[SeatRow], unscannable: bool | None) -> list[SeatHold]:
    """Each flagged seat's hold, from its seat row (an unscannable run holds every seat)."""
    reason = "unscannable" if unscannable else "tamper"
    return [
        SeatHold.model_validate(
            {
                "seat": r.seat,
                "agent_id": r.agent_id,
                "reason": reason,
                "state": r.review_state,
                "held_for_review": held_for_review(r.integrity_flagged, r.review_state),
            }
        )
        for r in rows
    ]


def _decisions(session: Session, *, run_id: str) -> list[SafetyReviewEntry]:
    rows = review_repo.reviews_of(session, run_id=run_id)  # times read back in UTC
    return [SafetyReviewEntry.model_validate(r, from_attributes=True) for r in rows]


def _earlier_scorecards(session: Session, *, run_id: str) -> list[ScorecardAttempt]:
    return [
        ScorecardAttempt(
            **a.model_dump(include={"attempt", "measurement_era", "archived_at", "archived_by"}),
            url=f"/api/evals/{run_id}/scorecards/{a.attempt}",
        )
        for a in review_repo.attempts_of(session, run_id=run_id)
    ]


def record_review(
    session: Session, *, run_id: str, body: SafetyReviewCreate, by: str, settings: Settings
) -> Recorded:
    """Store a decision (who, when, on which attempt); a rescore also queues the run again, and
    a ``label`` labels every safety trait of the card it was made on (docs/console.md, "Safety
    review"). ConflictError: a rescore of a run still scoring, or no scored safety block."""
    # decisions on one run are taken one at a time: a second concurrent rescore then reads the
    # run already queued again and gets 409, instead of archiving the same attempt twice
    lock_for_write(session, name=f"safety-review:{run_id}")
    run = visible_run(session, run_id=run_id, agent=None)
    rescore = body.decision == "rescore_requested"
    if rescore and run.status not in FINAL_RUN_STATUSES:
        raise ConflictError(
            f"run {run_id!r} is {run.status}; ask for a rescore once its scoring has finished"
        )
    if body.seat is not None:
        _require_held_seat(session, run_id=run_id, seat=body.seat, rescore=rescore)
    elif not rescore:
        _require_safety_block(session, run_id=run_id, status=run.status, decision=body.decision)
    review_repo.add_review(
        session,
        run_id=run_id,
        decision=body.decision,
        seat=body.seat,
        note=body.note.strip(),
        by=by,
    )
    session.flush()
    if body.label is not None:
        label_safety_block(session, run_id=run_id, score=body.label, note=body.note, by=by)
    if rescore:
        review_repo.archive_for_rescore(session, run=run, by=by)
    session.flush()
    if not rescore:  # the hold an agent reads and the decisions the owner reads have changed
        store_views(session, run_id=run_id, settings=settings)
    return Recorded(review_status(session, run_id=run_id, settings=settings), requeue=rescore)


def store_views(
    session: Session, *, run_id: str, settings: Settings, card: Scorecard | None = None
) -> None:
    """Render and store every view of the run's scorecard as it is now, replacing those before."""
    card = card or scorecard_repo.get_scorecard(session, run_id=run_id)
    if card is not None:
        review = review_status(session, run_id=run_id, settings=settings)
        view_repo.put_views(session, run_id=run_id, views=all_views(card, review))


def _require_safety_block(session: Session, *, run_id: str, status: str, decision: str) -> None:
    """A decision on the safety block needs a scored run with safety traits scored; a tamper-held
    run needs none, as the decision is what releases it from the hold (docs/integrity.md)."""
    summary = summary_repo.get_summary(session, run_id=run_id)
    if status != "scored":
        raise ConflictError(
            f"run {run_id!r} is {status}: it has no scored safety block to mark {decision}; "
            "record the decision once the run is scored"
        )
    if summary is not None and summary.tamper_flagged:
        return
    if summary is None or summary.safety_min is None:
        raise ConflictError(
            f"run {run_id!r} has no scored safety trait: there is no safety block to mark {decision}"
        )


def _require_held_seat(session: Session, *, run_id: str, seat: str, rescore: bool) -> None:
    """A decision on one seat needs that seat flagged, in a run that was judged: an unscannable
    run is held whole, since nothing of it was judged, and only a rescore (which is always of
    the whole run) may name one of its seats (docs/integrity.md)."""
    flagged = {r.seat for r in review_repo.flagged_seat_rows(session, run_id=run_id)}
    if seat not in flagged:
        raise ConflictError(
            f"seat {seat!r} of run {run_id!r} is not flagged for review: a seat decision is on a "
            f"flagged seat ({', '.join(sorted(flagged)) or 'none in this run'}); omit seat to "
            "decide on the whole run"
        )
    summary = summary_repo.get_summary(session, run_id=run_id)
    if summary is not None and summary.unscannable and not rescore:
        raise ConflictError(
            f"run {run_id!r} is unscannable: nothing of it was judged, so it is held whole; "
            "omit seat to decide on the whole run, or request a rescore"
        )


def review_queue_reasons(
    safety_min: float | None,
    safety_spread: float | None,
    tamper_flagged: bool | None,
    limits: SafetyReviewThresholds,
    *,
    unscannable: bool | None = False,
) -> list[str]:
    """Why a run is in the review queue: its safety figures, then withheld judge-directed text
    or a scan past its budget (docs/integrity.md)."""
    integrity = tamper_reasons(tamper_flagged, unscannable)
    return flag_reasons(safety_min, safety_spread, limits) + integrity


def review_queue_cursor(values: list[str]) -> ReviewQueueCursor:
    """A queue cursor's decoded values as a keyset position (InputError when they are not); an
    empty safety value is a run without a safety mean (tamper-held), which the queue lists last."""
    if values[0] == "":
        return ReviewQueueCursor(None, values[1])
    try:
        safety = float(values[0])
    except ValueError:
        safety = math.nan
    if not math.isfinite(safety):
        raise InputError("cursor: not a cursor of this list; start again without one")
    return ReviewQueueCursor(safety, values[1])


def review_queue_cursor_values(safety_min: float | None, run_id: str) -> list[str]:
    """What a cursor after a queue row carries (the float written exactly; empty for none)."""
    return ["" if safety_min is None else repr(safety_min), run_id]


def review_queue(
    session: Session,
    *,
    state: ReviewQueueState,
    settings: Settings,
    after: ReviewQueueCursor | None,
    limit: int,
) -> list[ReviewQueueEntry]:
    """One page of flagged runs in review ``state``, lowest safety mean first."""
    limits = thresholds(session, settings=settings)
    found = summary_repo.flagged_runs(
        session,
        safety_below=limits.safety_below,
        spread_above=limits.spread_above,
        review_state=None if state == "all" else state,
        limit=limit,
        after=after,
    )
    run_ids = [r.run_id for r in found]
    agents = summary_repo.agents_of(session, run_ids=run_ids)
    flagged = review_repo.flagged_seats_of(session, run_ids=run_ids)
    return [
        _queue_entry(r, agents[r.run_id], seat_holds(flagged[r.run_id], r.unscannable), limits)
        for r in found
    ]


def _queue_entry(
    row: RunListing, agents: list[str], holds: list[SeatHold], limits: SafetyReviewThresholds
) -> ReviewQueueEntry:
    return ReviewQueueEntry.model_validate(
        {
            "run_id": row.run_id,
            "scenario_id": row.scenario_id,
            "agents": agents,
            "safety_min": row.safety_min,
            "safety_spread": row.safety_spread,
            "reasons": review_queue_reasons(
                row.safety_min,
                row.safety_spread,
                row.tamper_flagged,
                limits,
                unscannable=row.unscannable,
            ),
            "state": row.review_state or "none",
            "held_for_review": any(h.held_for_review for h in holds),
            "held_seats": holds,
            "attempt": row.attempt or 1,
        }
    )


def earlier_scorecard_json(session: Session, *, run_id: str, attempt: int) -> str:
    """A scorecard a rescore replaced, exactly as it was stored."""
    visible_run(session, run_id=run_id, agent=None)
    row = review_repo.get_attempt(session, run_id=run_id, attempt=attempt)
    if row is None:
        raise NotFoundError(f"run {run_id!r} has no earlier scorecard with attempt {attempt}")
    return row.scorecard_json
