"""Owner CRUD over custom rubrics. Every change that moves the active rubric set opens a
new measurement era; runs scored with a custom rubric leave the ranked leaderboards."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlmodel import Session

from judge.core.domain.rubric import CalibrationMap, Rubric
from judge.core.errors import ConflictError, NotFoundError, RubricError, describe_validation_error
from judge.engine.packs import default_rubric_set
from judge.engine.settings import Settings
from judge.server.service import platform
from judge.server.store import rubrics as rubric_repo
from judge.server.store.db import lock_for_write
from judge.server.store.tables import CustomRubricRow


class RubricTexts(BaseModel):
    """What an owner writes for a custom rubric (the trait is in the path or the body)."""

    model_config = ConfigDict(extra="forbid")

    definition: str = Field(description="what the trait means (at least 20 characters)")
    anchor_0: str = Field(description="what a 0.0 looks like")
    anchor_5: str = Field(description="what a 0.5 looks like")
    anchor_1: str = Field(description="what a 1.0 looks like")


class RubricChange(NamedTuple):
    row: CustomRubricRow
    era_id: str


def unknown_trait(trait: str) -> str:
    """Says ``trait`` is not a known trait, naming the nearest known one (a likely typo)."""
    known = sorted(default_rubric_set().rubrics)
    nearest = difflib.get_close_matches(trait, known, n=1, cutoff=0.6)
    hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
    return f"{trait!r} is not a known trait{hint} known: {known}"


def known_trait(trait: str, *, in_path: bool = False) -> None:
    """A trait that does not exist: RubricError (422) in a body, NotFoundError (404, not "no
    rubric") in a URL."""
    if trait not in default_rubric_set().rubrics:
        if in_path:
            raise NotFoundError(f"unknown trait: {unknown_trait(trait)}")
        raise RubricError(f"trait: {unknown_trait(trait)}")


def as_rubric(trait: str, texts: RubricTexts, version: int = 1) -> Rubric:
    """Validate texts with the domain rubric's rules; RubricError naming the field."""
    try:
        return Rubric(trait=trait, version=version, source="custom", **texts.model_dump())
    except ValidationError as exc:
        raise RubricError(describe_validation_error(exc)) from None


def _store(
    session: Session, trait: str, texts: RubricTexts, by: str, settings: Settings
) -> RubricChange:
    row = rubric_repo.add_rubric_version(session, rubric=as_rubric(trait, texts), created_by=by)
    reason = f"custom rubric {trait} v{row.version}"
    era = platform.sync_era(session, settings=settings, by=by, reason=reason)
    return RubricChange(row, era.era_id)


def create_rubric(
    session: Session, *, trait: str, texts: RubricTexts, by: str, settings: Settings
) -> RubricChange:
    """A trait's first live custom rubric; ConflictError when one is live already."""
    known_trait(trait)
    lock_for_write(session, name=platform.PLATFORM_LOCK)
    if rubric_repo.current_rubric(session, trait=trait) is not None:
        raise ConflictError(
            f"a custom rubric for {trait!r} exists; update it with PUT /api/evals/rubrics/{trait}"
        )
    return _store(session, trait, texts, by, settings)


def update_rubric(
    session: Session, *, trait: str, texts: RubricTexts, by: str, settings: Settings
) -> RubricChange:
    """A new version of a live custom rubric."""
    known_trait(trait, in_path=True)
    lock_for_write(session, name=platform.PLATFORM_LOCK)
    if rubric_repo.current_rubric(session, trait=trait) is None:
        raise NotFoundError(
            f"no custom rubric for {trait!r}; create it with POST /api/evals/rubrics"
        )
    return _store(session, trait, texts, by, settings)


def delete_rubric(session: Session, *, trait: str, by: str, settings: Settings) -> str:
    """Retire a trait's custom rubric (history kept); returns the era now current."""
    known_trait(trait, in_path=True)
    lock_for_write(session, name=platform.PLATFORM_LOCK)
    if rubric_repo.delete_rubric(session, trait=trait) == 0:
        raise NotFoundError(f"no custom rubric for {trait!r}")
    reason = f"custom rubric {trait} deleted"
    return platform.sync_era(session, settings=settings, by=by, reason=reason).era_id


def live_rubric(session: Session, *, trait: str) -> CustomRubricRow:
    known_trait(trait, in_path=True)
    row = rubric_repo.current_rubric(session, trait=trait)
    if row is None:
        raise NotFoundError(f"no custom rubric for {trait!r}")
    return row


class RubricCreate(RubricTexts):
    """A new custom rubric for a known trait."""

    trait: str = Field(description="a trait of the catalog, e.g. negotiation")


class RubricUpdate(RubricTexts):
    """New texts for a trait's custom rubric (stored as its next version)."""


class CustomRubric(BaseModel):
    trait: str
    version: int
    definition: str
    anchor_0: str
    anchor_5: str
    anchor_1: str
    content_hash: str
    created_by: str
    created_at: datetime
    deleted_at: datetime | None = None
    calibration_map: CalibrationMap | None = Field(
        default=None,
        description="the calibration map an adopted alignment put on the trait's scores "
        "(docs/alignment.md)",
    )


class CustomRubricChanged(CustomRubric):
    era_id: str = Field(description="the measurement era now current")


class ActiveRubric(BaseModel):
    trait: str
    pack: str
    source: str
    version: int
    content_hash: str


class Rubrics(BaseModel):
    custom: Sequence[CustomRubric]
    active: Sequence[ActiveRubric]
    uses_custom: bool = Field(description="true when scoring now leaves the ranked leaderboards")


class RubricHistory(BaseModel):
    current: CustomRubric
    versions: Sequence[CustomRubric]


class RubricDeleted(BaseModel):
    trait: str
    era_id: str


def custom_public(row: CustomRubricRow) -> CustomRubric:
    found = rubric_repo.rubric_of(row).calibration_map
    shown = CustomRubric.model_validate(row, from_attributes=True)  # times read back in UTC
    return shown.model_copy(update={"calibration_map": found})


def changed_public(change: RubricChange) -> CustomRubricChanged:
    return CustomRubricChanged(**custom_public(change.row).model_dump(), era_id=change.era_id)


def rubrics_public(session: Session, *, settings: Settings) -> Rubrics:
    active = platform.rubric_set(session, settings=settings)
    return Rubrics(
        custom=[custom_public(r) for r in rubric_repo.current_rubrics(session).values()],
        active=[
            ActiveRubric(
                trait=t,
                pack=active.packs[t],
                source=r.source,
                version=r.version,
                content_hash=r.content_hash,
            )
            for t, r in active.rubrics.items()
        ],
        uses_custom=active.uses_custom,
    )


def rubric_history(session: Session, *, trait: str) -> RubricHistory:
    current = live_rubric(session, trait=trait)
    versions = rubric_repo.rubric_versions(session, trait=trait)
    return RubricHistory(
        current=custom_public(current), versions=[custom_public(v) for v in versions]
    )
