"""Repository functions for custom rubrics: versioned per trait, deletes keep history."""

from __future__ import annotations

from sqlalchemy import func
from sqlmodel import Session, col, select

from judge.domain.rubric import Rubric
from judge.store.tables import CustomRubricRow, utcnow


def rubric_of(row: CustomRubricRow) -> Rubric:
    return Rubric(
        trait=row.trait,
        version=row.version,
        definition=row.definition,
        anchor_0=row.anchor_0,
        anchor_5=row.anchor_5,
        anchor_1=row.anchor_1,
        source="custom",
    )


def current_rubric(session: Session, *, trait: str) -> CustomRubricRow | None:
    """The newest live version for a trait (None when there is none, or it was deleted)."""
    query = (
        select(CustomRubricRow)
        .where(CustomRubricRow.trait == trait, col(CustomRubricRow.deleted_at).is_(None))
        .order_by(col(CustomRubricRow.version).desc())
    )
    return session.exec(query).first()


def current_rubrics(session: Session) -> dict[str, CustomRubricRow]:
    """The newest live version of every trait that has one."""
    query = (
        select(CustomRubricRow)
        .where(col(CustomRubricRow.deleted_at).is_(None))
        .order_by(col(CustomRubricRow.trait), col(CustomRubricRow.version))
    )
    return {row.trait: row for row in session.exec(query).all()}


def rubric_versions(session: Session, *, trait: str) -> list[CustomRubricRow]:
    query = (
        select(CustomRubricRow)
        .where(CustomRubricRow.trait == trait)
        .order_by(col(CustomRubricRow.version))
    )
    return list(session.exec(query).all())


def add_rubric_version(session: Session, *, rubric: Rubric, created_by: str) -> CustomRubricRow:
    """Store ``rubric`` as the next version of its trait (versions never repeat)."""
    latest = session.exec(
        select(func.max(CustomRubricRow.version)).where(CustomRubricRow.trait == rubric.trait)
    ).one()
    row = CustomRubricRow(
        trait=rubric.trait,
        version=(latest or 0) + 1,
        definition=rubric.definition,
        anchor_0=rubric.anchor_0,
        anchor_5=rubric.anchor_5,
        anchor_1=rubric.anchor_1,
        content_hash=rubric.content_hash,
        created_by=created_by,
    )
    session.add(row)
    return row


def delete_rubric(session: Session, *, trait: str) -> int:
    """Retire every live version of a trait's custom rubric; returns how many."""
    rows = [r for r in rubric_versions(session, trait=trait) if r.deleted_at is None]
    now = utcnow()
    for row in rows:
        row.deleted_at = now
        session.add(row)
    return len(rows)
