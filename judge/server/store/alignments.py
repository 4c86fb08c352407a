"""Repository functions for `judge align` proposals: each kept whole with its held-out proof,
and, once an owner adopts one of its candidates, who adopted which, and the eras before and
after (docs/alignment.md)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, Session, SQLModel, col, select

from judge.server.store.tables import UtcDateTime, utcnow


class AlignmentRow(SQLModel, table=True):
    """One proposal for one trait and, when adopted, the adoption."""

    __tablename__ = "alignments"
    __table_args__ = (sa.Index("ix_alignments_trait", "trait"),)

    id: int | None = Field(default=None, primary_key=True)
    trait: str = Field(max_length=80)
    proposal_json: str = Field(sa_type=sa.Text())
    created_by: str = Field(max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    adopted_kind: str | None = Field(default=None, max_length=20)
    adopted_by: str | None = Field(default=None, max_length=200)
    adopted_at: datetime | None = Field(default=None, sa_type=UtcDateTime())
    era_before: str | None = Field(default=None, max_length=40)
    era_after: str | None = Field(default=None, max_length=40)
    rubric_version: int | None = None


def add_alignment(session: Session, *, row: AlignmentRow) -> AlignmentRow:
    session.add(row)
    session.flush()
    return row


def get_alignment(session: Session, *, alignment_id: int) -> AlignmentRow | None:
    return session.get(AlignmentRow, alignment_id)


def list_alignments(session: Session) -> list[AlignmentRow]:
    """Every proposal, newest first."""
    return list(session.exec(select(AlignmentRow).order_by(col(AlignmentRow.id).desc())).all())
