"""Owners' labels (owner only): a run's labels, labelling a trait of a seat, the labelling
queue, and the judge's agreement with the owners per trait, judge and era, with drift."""

from __future__ import annotations

from fastapi import status

from judge.core.domain.labels import Label, LabelCreate, QueueItem
from judge.engine.calibration.owners import EraDrift, LiveAgreement
from judge.server.api.deps import OwnerDep, SessionDep, SettingsDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service import label_agreement, label_queue
from judge.server.service import labels as service

router = owner_router("labels", responses=error_responses(422))
QUEUE_MAX = 500


@router.get("/api/evals/labels/queue", summary="Labelling queue (owner)", responses=PAGED)
def queue(session: SessionDep, settings: SettingsDep, paging: PagingDep) -> list[QueueItem]:
    """Seat-traits of the newest scorecards worth an owner's label, each with why it was picked
    (`wide_spread`, `panel_disagreement`, `near_threshold`, `tamper`, `uniform_sample`) and its
    inclusion probability and weight; least-labelled first (docs/calibration.md, "The queue")."""
    items = label_queue.labelling_queue(session, settings=settings, limit=QUEUE_MAX)
    return paging.by_position(items)


@router.get(
    "/api/evals/labels/agreement",
    summary="The judge against the owners, per trait and era (owner)",
    responses=PAGED,
)
def agreement(session: SessionDep, settings: SettingsDep, paging: PagingDep) -> list[LiveAgreement]:
    """Per era (oldest first) and labelled trait: Spearman and Kendall with bootstrap intervals,
    quadratic-weighted kappa, MAE, bias, Krippendorff's alpha among owners and the owners' ceiling,
    computed by `judge calibrate`'s own code (docs/calibration.md)."""
    return paging.by_position(label_agreement.live_agreement(session, settings=settings))


@router.get(
    "/api/evals/labels/drift",
    summary="Each era's agreement against the era before it (owner)",
    responses=PAGED,
)
def drift(session: SessionDep, paging: PagingDep) -> list[EraDrift]:
    """On the items labelled and judged in both eras: `dropped` when the newer era's Spearman lies
    below the older era's bootstrap interval."""
    return paging.by_position(label_agreement.drift(session))


@router.get(
    "/api/evals/{run_id}/labels",
    summary="A run's owner labels (owner)",
    responses={**PAGED, **error_responses(404)},
)
def run_labels(run_id: str, session: SessionDep, paging: PagingDep) -> list[Label]:
    """Every label of the run, oldest first: who, when, the score on the rubric's anchors, the note,
    the rubric version and the era of the card it was given on."""
    return paging.by_position(service.run_labels(session, run_id=run_id))


@router.post(
    "/api/evals/{run_id}/labels",
    status_code=status.HTTP_201_CREATED,
    summary="Label a trait of a seat (owner)",
    responses=error_responses(404, 409),
)
def post_label(run_id: str, body: LabelCreate, owner: OwnerDep, session: SessionDep) -> Label:
    """The owner's own score (0, 0.5 or 1: the rubric's anchors) with a note. Several owners may
    label the same item; an owner's later label replaces their earlier one in the agreement, and
    both are kept. 409 before the run is scored."""
    return service.add_label(session, run_id=run_id, body=body, by=owner.actor, source="api")
