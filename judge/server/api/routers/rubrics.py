"""Custom rubrics (owner CRUD). Each change opens a new measurement era; runs scored while
a custom rubric is active are `ranked_eligible: false`, class `self_hosted_facilitator`."""

from __future__ import annotations

from fastapi import status

from judge.server.api.deps import OwnerDep, SessionDep, SettingsDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.models import RubricHistoryPublic, RubricsPublic
from judge.server.service import rubrics as service
from judge.server.service.rubrics import (
    CustomRubricChanged,
    RubricCreate,
    RubricDeleted,
    RubricUpdate,
)

router = owner_router("rubrics", prefix="/api/evals/rubrics")


@router.get("", summary="Custom rubrics and the active rubric set")
def list_rubrics(session: SessionDep, settings: SettingsDep) -> RubricsPublic:
    """The live custom rubrics, and for every trait the next run is scored with: its pack, whether
    the rubric is built in or custom, version and content hash."""
    rubrics = service.rubrics_public(session, settings=settings)
    return RubricsPublic.model_validate(rubrics, from_attributes=True)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Create a custom rubric",
    responses=error_responses(409, 422),
)
def create_rubric(
    body: RubricCreate, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> CustomRubricChanged:
    """For a known trait without a live custom rubric (else 409). Validated like the built-in
    rubrics (definition at least 20 characters, anchors at least 10)."""
    texts = service.RubricTexts.model_validate(body.model_dump(exclude={"trait"}))
    change = service.create_rubric(
        session, trait=body.trait, texts=texts, by=owner.actor, settings=settings
    )
    return service.changed_public(change)


@router.get("/{trait}", summary="A custom rubric and its versions", responses=error_responses(404))
def read_rubric(trait: str, session: SessionDep) -> RubricHistoryPublic:
    """The live version and every version ever stored (deleted ones included)."""
    history = service.rubric_history(session, trait=trait)
    return RubricHistoryPublic.model_validate(history, from_attributes=True)


@router.put("/{trait}", summary="Update a custom rubric", responses=error_responses(404, 422))
def update_rubric(
    trait: str, body: RubricUpdate, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> CustomRubricChanged:
    """Stores the texts as the next version; 404 when the trait has no live custom rubric."""
    change = service.update_rubric(
        session, trait=trait, texts=body, by=owner.actor, settings=settings
    )
    return service.changed_public(change)


@router.delete("/{trait}", summary="Delete a custom rubric", responses=error_responses(404))
def delete_rubric(
    trait: str, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> RubricDeleted:
    """The trait goes back to its built-in rubric; stored versions are kept for the record."""
    era_id = service.delete_rubric(session, trait=trait, by=owner.actor, settings=settings)
    return RubricDeleted(trait=trait, era_id=era_id)
