"""The coaching cache: keyword-only reads and writes of :class:`CoachingRow`."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col

from judge.server.store.tables import CoachingRow


def get_coaching_json(session: Session, *, run_id: str, seat: str, era_id: str) -> str | None:
    row = session.get(CoachingRow, (run_id, seat, era_id))
    return None if row is None else row.body_json


def put_coaching_json(
    session: Session, *, run_id: str, seat: str, era_id: str, body_json: str
) -> bool:
    """Store an answer; False when one was stored meanwhile (the first one is kept)."""
    try:
        with session.begin_nested():
            session.add(CoachingRow(run_id=run_id, seat=seat, era_id=era_id, body_json=body_json))
        return True
    except IntegrityError:
        return False


def delete_coaching(session: Session, *, run_id: str, seat: str, era_id: str) -> None:
    """Drop the answer kept for this run, seat and era (one an older coaching prompt made)."""
    session.execute(
        sa.delete(CoachingRow).where(
            col(CoachingRow.run_id) == run_id,
            col(CoachingRow.seat) == seat,
            col(CoachingRow.era_id) == era_id,
        )
    )
