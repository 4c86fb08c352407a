"""Repository functions for measurement eras: which judge stack was current, and since when."""

from __future__ import annotations

from sqlmodel import Session, col, select

from judge.core.domain.scorecard import MeasurementEra
from judge.server.store.tables import EraRow, utcnow


def get_era(session: Session, *, era_id: str) -> EraRow | None:
    return session.get(EraRow, era_id)


def current_era(session: Session) -> EraRow | None:
    """The most recently opened era."""
    query = select(EraRow).order_by(col(EraRow.opened_at).desc(), col(EraRow.era_id))
    return session.exec(query).first()


def list_eras(session: Session) -> list[EraRow]:
    return list(session.exec(select(EraRow).order_by(col(EraRow.opened_at))).all())


def open_era(session: Session, *, era: MeasurementEra, opened_by: str, reason: str) -> EraRow:
    """Open ``era`` unless it is already the current one; returns the current era row."""
    latest = current_era(session)
    if latest is not None and latest.era_id == era.era_id:
        return latest
    row = session.get(EraRow, era.era_id)
    if row is None:
        row = EraRow(
            era_id=era.era_id, stack_json=era.model_dump_json(), opened_by=opened_by, reason=reason
        )
    else:  # returning to an earlier stack re-opens that era
        row.opened_at, row.opened_by, row.reason = utcnow(), opened_by, reason
    session.add(row)
    return row
