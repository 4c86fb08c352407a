"""Owners' labels (owner only): a run's labels, labelling a trait of a seat, the labelling
queue, and the judge's agreement with the owners per trait, judge and era, with drift."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request, Response, status

from judge.api.deps import OwnerDep, SessionDep, SettingsDep
from judge.api.errors import error_responses
from judge.api.paging import (
    DEFAULT_LIMIT,
    LINK_HEADER,
    CursorQuery,
    Limit,
    Page,
    decode_cursor,
    encode_cursor,
    paged,
)
from judge.calibration.owners import EraDrift, LiveAgreement
from judge.domain.labels import Label, LabelCreate, QueueItem
from judge.errors import InputError
from judge.service import label_agreement, label_queue
from judge.service import labels as service

router = APIRouter(tags=["labels"])
#: the queue reads at most this many items (the newest scorecards'), so paging by position is bounded
QUEUE_MAX = 500


def by_position(
    request: Request, response: Response, items: Sequence[Any], limit: int, cursor: str | None
) -> list[Any]:
    """One page of a list computed whole, the cursor carrying the next position."""
    start = _position(decode_cursor(cursor, size=1)[0]) if cursor else 0
    page = list(items[start : start + limit])
    more = start + limit < len(items) and bool(page)
    return paged(
        request, response, Page(page, encode_cursor([str(start + limit)]) if more else None)
    )


def _position(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise InputError("cursor: not a cursor of this list; start again without one")
    return int(text)


@router.get(
    "/api/evals/labels/queue",
    summary="Labelling queue (owner)",
    description="Seat-traits of the newest scorecards worth an owner's label, each with why it "
    "was picked (`wide_pass_range`, `panel_disagreement`, `near_threshold`, `tamper`, "
    "`uniform_sample`) and its inclusion probability and weight; least-labelled first "
    '(docs/calibration.md, "The queue").',
    responses={200: {"headers": LINK_HEADER}, **error_responses(401, 422)},
)
def queue(
    request: Request,
    response: Response,
    owner: OwnerDep,
    session: SessionDep,
    settings: SettingsDep,
    limit: Limit = DEFAULT_LIMIT,
    cursor: CursorQuery = None,
) -> list[QueueItem]:
    items = label_queue.labelling_queue(session, settings=settings, limit=QUEUE_MAX)
    return by_position(request, response, items, limit, cursor)


@router.get(
    "/api/evals/labels/agreement",
    summary="The judge against the owners, per trait and era (owner)",
    description="Per era (oldest first) and labelled trait: Spearman and Kendall with bootstrap "
    "intervals, quadratic-weighted kappa, MAE, bias, Krippendorff's alpha among owners and the "
    "owners' ceiling, computed by `judge calibrate`'s own code (docs/calibration.md).",
    responses={200: {"headers": LINK_HEADER}, **error_responses(401, 422)},
)
def agreement(
    request: Request,
    response: Response,
    owner: OwnerDep,
    session: SessionDep,
    settings: SettingsDep,
    limit: Limit = DEFAULT_LIMIT,
    cursor: CursorQuery = None,
) -> list[LiveAgreement]:
    found = label_agreement.live_agreement(session, settings=settings)
    return by_position(request, response, found, limit, cursor)


@router.get(
    "/api/evals/labels/drift",
    summary="Each era's agreement against the era before it (owner)",
    description="On the items labelled and judged in both eras: `dropped` when the newer era's "
    "Spearman lies below the older era's bootstrap interval.",
    responses={200: {"headers": LINK_HEADER}, **error_responses(401, 422)},
)
def drift(
    request: Request,
    response: Response,
    owner: OwnerDep,
    session: SessionDep,
    settings: SettingsDep,
    limit: Limit = DEFAULT_LIMIT,
    cursor: CursorQuery = None,
) -> list[EraDrift]:
    found = label_agreement.drift(session)
    return by_position(request, response, found, limit, cursor)


@router.get(
    "/api/evals/{run_id}/labels",
    summary="A run's owner labels (owner)",
    description="Every label of the run, oldest first: who, when, the score on the rubric's "
    "anchors, the note, the rubric version and the era of the card it was given on.",
    responses={200: {"headers": LINK_HEADER}, **error_responses(401, 404, 422)},
)
def run_labels(
    run_id: str,
    request: Request,
    response: Response,
    owner: OwnerDep,
    session: SessionDep,
    limit: Limit = DEFAULT_LIMIT,
    cursor: CursorQuery = None,
) -> list[Label]:
    found = service.run_labels(session, run_id=run_id)
    return by_position(request, response, found, limit, cursor)


@router.post(
    "/api/evals/{run_id}/labels",
    status_code=status.HTTP_201_CREATED,
    summary="Label a trait of a seat (owner)",
    description="The owner's own score (0, 0.5 or 1: the rubric's anchors) with a note. Several "
    "owners may label the same item; an owner's later label replaces their earlier one in the "
    "agreement, and both are kept. 409 before the run is scored.",
    responses=error_responses(401, 404, 409, 422),
)
def post_label(run_id: str, body: LabelCreate, owner: OwnerDep, session: SessionDep) -> Label:
    return service.add_label(session, run_id=run_id, body=body, by=owner.actor, source="api")
