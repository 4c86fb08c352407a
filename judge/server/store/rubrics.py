"""Repository functions for custom rubrics: versioned per trait, deletes keep history."""

from __future__ import annotations

from sqlalchemy import func
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from judge.core.domain.rubric import CalibrationMap, Rubric
from judge.server.store.tables import CustomRubricRow, utcnow

#: The columns a stored version shares with :class:`Rubric` (its hash and author are the row's;
#: its calibration map is kept as JSON).
_RUBRIC_FIELDS = {"trait", "version", "definition", "anchor_0", "anchor_5", "anchor_1"}


def rubric_of(row: CustomRubricRow) -> Rubric:
    found = row.calibration_map_json
    mapped = None if found is None else CalibrationMap.model_validate_json(found)
    return Rubric(**row.model_dump(include=_RUBRIC_FIELDS), source="custom", calibration_map=mapped)


def _versions_of(trait: str) -> SelectOfScalar[CustomRubricRow]:
    """Every stored version of the trait's custom rubric, deleted ones included."""
    return select(CustomRubricRow).where(CustomRubricRow.trait == trait)


def current_rubric(session: Session, *, trait: str) -> CustomRubricRow | None:
    """The newest live version for a trait (None when there is none, or it was deleted)."""
    query = _versions_of(trait).where(col(CustomRubricRow.deleted_at).is_(None))
    return session.exec(query.order_by(col(CustomRubricRow.version).desc())).first()


def current_rubrics(session: Session) -> dict[str, CustomRubricRow]:
    """The newest live version of every trait that has one."""
    query = (
        select(CustomRubricRow)
        .where(col(CustomRubricRow.deleted_at).is_(None))
        .order_by(col(CustomRubricRow.trait), col(CustomRubricRow.version))
    )
    return {row.trait: row for row in session.exec(query).all()}


def rubric_versions(session: Session, *, trait: str) -> list[CustomRubricRow]:
    query = _versions_of(trait).order_by(col(CustomRubricRow.version))
    return list(session.exec(query).all())


def add_rubric_version(session: Session, *, rubric: Rubric, created_by: str) -> CustomRubricRow:
    """Store ``rubric`` as the next version of its trait (versions never repeat)."""
    latest = session.exec(
        select(func.max(CustomRubricRow.version)).where(CustomRubricRow.trait == rubric.trait)
    ).one()
    fields = rubric.model_dump(include=_RUBRIC_FIELDS) | {"version": (latest or 0) + 1}
    found = rubric.calibration_map
    row = CustomRubricRow(
        **fields,
        calibration_map_json=None if found is None else found.model_dump_json(),
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
