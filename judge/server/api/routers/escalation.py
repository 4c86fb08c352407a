"""Selective escalation (owner): each trait's target agreement, the threshold the owners'
labels support for it, and who decided each seat-trait of a run (docs/escalation.md)."""

from __future__ import annotations

from fastapi import Response, status

from judge.core.domain.escalation import Decision, EscalationTargetCreate, TraitEscalation
from judge.server.api.deps import OwnerDep, SessionDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service import escalation as service

router = owner_router("escalation", responses=error_responses(422))


@router.get(
    "/api/evals/escalation", summary="Escalation targets per trait (owner)", responses=PAGED
)
def list_targets(session: SessionDep, paging: PagingDep) -> list[TraitEscalation]:
    """Each trait with a target: the threshold chosen on the selection split (or none, when the
    target cannot be reached), the held-out agreement and coverage at it, and both splits'
    coverage-agreement curves. Paged by `limit` and `cursor`, in trait order."""
    found = [t for _, t in sorted(service.stored(session).traits.items())]
    return paging.by_key(found, lambda t: t.trait)


@router.put(
    "/api/evals/escalation/{trait}",
    summary="Set a trait's target agreement (owner)",
)
def set_target(
    trait: str, body: EscalationTargetCreate, owner: OwnerDep, session: SessionDep
) -> TraitEscalation:
    """Choose the least confidence whose kept items agree with the owners at least `target`
    (lower bound at `1 - risk`) on the selection half of the labelled runs (split by `seed`),
    and report agreement and coverage on the held-out half. A target no threshold reaches is
    stored as `reachable: false`: every item of the trait then escalates (coverage 0)."""
    return service.set_target(session, trait=trait, body=body, by=owner.actor)


@router.delete(
    "/api/evals/escalation/{trait}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Drop a trait's target (owner)",
    responses=error_responses(404),
)
def remove_target(trait: str, owner: OwnerDep, session: SessionDep) -> Response:
    """The trait's items are decided by the card's judge again."""
    service.remove_target(session, trait=trait, by=owner.actor)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/api/evals/{run_id}/escalation",
    summary="Who decided each seat-trait of a run (owner)",
    responses={**PAGED, **error_responses(404, 409)},
)
def run_decisions(run_id: str, session: SessionDep, paging: PagingDep) -> list[Decision]:
    """Per seat and trait of the current card: the verdict's confidence (its spread, entropy and
    panel terms), the trait's threshold, and who decided: the card's judge, a panel member the
    item escalated to, or the owners (`low judge confidence`)."""
    return paging.by_position(service.run_decisions(session, run_id=run_id))
