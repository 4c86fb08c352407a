"""`judge align` over the API (owner only; docs/alignment.md): propose candidate judge changes
for one trait from the owners' labels, list the proposals with their held-out proofs, and
adopt one candidate on an explicit command."""

from __future__ import annotations

from fastapi import status

from judge.engine.judging.panel import single_judge
from judge.server.api.deps import (
    EngineDep,
    OwnerDep,
    SessionDep,
    SettingsDep,
    WorkersDep,
    owner_router,
)
from judge.server.api.errors import ErrorPublic, error_responses
from judge.server.api.models import AlignmentPublic, public_list
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service import align as service
from judge.server.service.align import AlignmentAdopt, AlignmentCreate

router = owner_router("alignments", responses=error_responses(422))


@router.post(
    "/api/evals/alignments",
    status_code=status.HTTP_201_CREATED,
    summary="Propose judge changes for one trait, proven on held-out labels (owner)",
    responses={
        **error_responses(404),
        429: {
            "model": ErrorPublic,
            "description": "The platform's daily judging budget would be passed by the "
            "proposal's estimate; no judge call was made (Retry-After: the next UTC day).",
        },
        502: {"description": "The judge could not be reached."},
    },
)
async def propose(
    body: AlignmentCreate,
    owner: OwnerDep,
    engine: EngineDep,
    settings: SettingsDep,
    workers: WorkersDep,
) -> AlignmentPublic:
    """Splits the labelled runs by run (the seed is kept), judges them all with the current rubric,
    makes three candidates from the selection part (exemplars, anchor clarifications, a calibration
    map) and proves each on the held-out part: `judge calibrate`'s agreement for baseline and
    candidate, and a paired bootstrap interval of the MAE gain. Nothing is adopted. The calls are
    estimated first and refused (429) when they would pass the platform's daily budget; those
    made count in today's spend and the judge metrics."""
    backend = workers.backends(settings.judge)
    made = await service.make_proposal(
        engine, body=body, settings=settings, backend=single_judge(backend), by=owner.actor
    )
    return AlignmentPublic.model_validate(made, from_attributes=True)


@router.get(
    "/api/evals/alignments", summary="Alignment proposals, newest first (owner)", responses=PAGED
)
def proposals(session: SessionDep, paging: PagingDep) -> list[AlignmentPublic]:
    """Every proposal with its split, candidates and proofs, and what was adopted."""
    return public_list(AlignmentPublic, paging.by_position(service.alignments(session)))


@router.get(
    "/api/evals/alignments/{alignment_id}",
    summary="One alignment proposal (owner)",
    responses=error_responses(404),
)
def proposal(alignment_id: int, session: SessionDep) -> AlignmentPublic:
    """The proposal with its split seed, candidates, held-out proofs and any adoption."""
    found = service.public(service.alignment(session, alignment_id=alignment_id))
    return AlignmentPublic.model_validate(found, from_attributes=True)


@router.post(
    "/api/evals/alignments/{alignment_id}/adopt",
    summary="Adopt one proven candidate: a new rubric version and a new era (owner)",
    responses=error_responses(404, 409),
)
def adopt(
    alignment_id: int,
    body: AlignmentAdopt,
    owner: OwnerDep,
    session: SessionDep,
    settings: SettingsDep,
) -> AlignmentPublic:
    """409 unless the candidate's held-out MAE gain has its whole interval above 0, the trait's
    rubric is the one the proposal started from, and the proposal was not adopted before."""
    adopted = service.adopt(
        session, alignment_id=alignment_id, body=body, by=owner.actor, settings=settings
    )
    return AlignmentPublic.model_validate(adopted, from_attributes=True)
