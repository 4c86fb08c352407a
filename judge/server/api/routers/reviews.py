"""Safety review of a run (owner only): its state, recording a decision, earlier scorecards."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Response, status

from judge.core.domain.cursor import decode_cursor, encode_cursor
from judge.core.domain.review import ReviewQueueEntry, ReviewQueueState, SafetyReviewCreate
from judge.core.domain.scorecard import Scorecard
from judge.server.api.deps import (
    OwnerDep,
    SessionDep,
    SettingsDep,
    WorkersDep,
    after_commit,
    owner_router,
)
from judge.server.api.errors import error_responses
from judge.server.api.models import SafetyReviewPublic
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service import reviews as service

router = owner_router("safety review")
#: Attempts are stored as a 32-bit integer (a larger one is 422, not a store error).
ATTEMPT_MAX = 2**31 - 1


@router.get(
    "/api/evals/safety-review",
    summary="Safety review queue (owner)",
    responses={**PAGED, **error_responses(422)},
)
def review_queue(
    session: SessionDep,
    settings: SettingsDep,
    paging: PagingDep,
    state: Annotated[ReviewQueueState, Query(description="which runs of the queue")] = "open",
) -> list[ReviewQueueEntry]:
    """Flagged runs (a safety trait mean below `console_safety_review.safety_below`, safety passes
    whose spread exceeds `spread_above`, or judge-directed text withheld from the judge), lowest
    safety mean first (none last), in review `state` (`open`: no decision yet, or a rescore asked;
    `all`: every flagged run). Paged by `limit` and `cursor`, the next page in the `Link: <…>;
    rel="next"` header. A new scorecard reopens a run."""
    cursor = paging.cursor
    after = service.review_queue_cursor(decode_cursor(cursor, size=2)) if cursor else None
    found = service.review_queue(
        session, state=state, settings=settings, after=after, limit=paging.limit + 1
    )
    return paging.by_fetch(found, _cursor_of)


def _cursor_of(entry: ReviewQueueEntry) -> str:
    return encode_cursor(service.review_queue_cursor_values(entry.safety_min, entry.run_id))


@router.get(
    "/api/evals/{run_id}/safety-review",
    summary="Safety review state of a run (owner)",
    responses=error_responses(404),
)
def get_review(run_id: str, session: SessionDep, settings: SettingsDep) -> SafetyReviewPublic:
    """The latest decision (`none` before any), whether the run is flagged for review and why (a
    safety trait mean below `console_safety_review.safety_below`, or safety passes whose spread
    exceeds `spread_above`), every decision with who and when, and the scorecards a rescore
    replaced."""
    review = service.review_status(session, run_id=run_id, settings=settings)
    return SafetyReviewPublic.model_validate(review, from_attributes=True)


@router.post(
    "/api/evals/{run_id}/safety-review",
    status_code=status.HTTP_201_CREATED,
    summary="Record a safety review decision (owner)",
    responses=error_responses(404, 409, 422),
)
def post_review(
    run_id: str,
    body: SafetyReviewCreate,
    owner: OwnerDep,
    session: SessionDep,
    settings: SettingsDep,
    workers: WorkersDep,
) -> SafetyReviewPublic:
    """`cleared`, `escalated` or `rescore_requested`, with a note; stored with the owner's name and
    the time, never changed afterwards. `rescore_requested` keeps the current scorecard (with every
    pass) as an earlier attempt and queues the run to be scored again under the era in force; 409
    while the run is still being scored."""
    recorded = service.record_review(
        session, run_id=run_id, body=body, by=owner.actor, settings=settings
    )
    if recorded.requeue:
        after_commit(session, lambda: workers.enqueue(run_id))
    return SafetyReviewPublic.model_validate(recorded.review, from_attributes=True)


@router.get(
    "/api/evals/{run_id}/scorecards/{attempt}",
    summary="A scorecard replaced by a rescore (owner)",
    response_model=Scorecard,
    responses=error_responses(404),
)
def earlier_scorecard(
    run_id: str, attempt: Annotated[int, Path(ge=1, le=ATTEMPT_MAX)], session: SessionDep
) -> Response:
    """The owner scorecard of an earlier scoring attempt, exactly as it was stored."""
    text = service.earlier_scorecard_json(session, run_id=run_id, attempt=attempt)
    return Response(text, media_type="application/json")
