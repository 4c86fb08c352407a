"""The ``labels`` table (migration ``0009_labels``): a label is never updated."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, Session, SQLModel, col, select

from judge.server.store.review_tables import ScorecardAttemptRow
from judge.server.store.tables import RunRow, ScorecardRow, UtcDateTime, utcnow


class LabelRow(SQLModel, table=True):
    """One owner's label of one trait of one seat of a run."""

    __tablename__ = "labels"
    __table_args__ = (sa.Index("ix_labels_item", "run_id", "seat", "trait"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.run_id", max_length=200)
    seat: str = Field(max_length=200)
    trait: str = Field(max_length=80)
    score: float
    note: str = Field(default="", sa_type=sa.Text())
    labelled_by: str = Field(max_length=200)
    labelled_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    rubric_version: int
    rubric_hash: str = Field(max_length=64)
    era_id: str = Field(max_length=40)
    judge_model: str = Field(max_length=200)
    source: str = Field(max_length=20)


def add_label(session: Session, *, row: LabelRow) -> LabelRow:
    session.add(row)
    session.flush()
    return row


def labels_of(session: Session, *, run_id: str) -> list[LabelRow]:
    """A run's labels, oldest first."""
    query = select(LabelRow).where(LabelRow.run_id == run_id).order_by(col(LabelRow.id))
    return list(session.exec(query).all())


def all_labels(session: Session, *, traits: Sequence[str] | None = None) -> list[LabelRow]:
    """Every label (of ``traits`` when given), oldest first."""
    query = select(LabelRow).order_by(col(LabelRow.id))
    if traits is not None:
        query = query.where(col(LabelRow.trait).in_(list(traits)))
    return list(session.exec(query).all())


def label_counts(session: Session) -> dict[tuple[str, str, str], int]:
    """How many labels each (run, seat, trait) carries."""
    query = select(LabelRow.run_id, LabelRow.seat, LabelRow.trait, sa.func.count()).group_by(
        LabelRow.run_id, LabelRow.seat, LabelRow.trait
    )
    return {(r, s, t): int(n) for r, s, t, n in session.exec(query).all()}


def cards_of(session: Session, *, run_ids: Sequence[str]) -> list[tuple[str, str]]:
    """``(run_id, scorecard JSON)`` of every card the runs had: each rescore's replaced
    scorecard first (oldest attempt first), then the current one."""
    if not run_ids:
        return []
    wanted = list(run_ids)
    archived = select(ScorecardAttemptRow.run_id, ScorecardAttemptRow.scorecard_json).where(
        col(ScorecardAttemptRow.run_id).in_(wanted)
    )
    current = select(ScorecardRow.run_id, ScorecardRow.scorecard_json).where(
        col(ScorecardRow.run_id).in_(wanted)
    )
    ordered = archived.order_by(col(ScorecardAttemptRow.attempt))
    return [(r, j) for r, j in [*session.exec(ordered), *session.exec(current)]]


def run_bodies(session: Session, *, run_ids: Sequence[str]) -> dict[str, str]:
    """The stored body of each run, by id, in id order."""
    if not run_ids:
        return {}
    query = (
        select(RunRow.run_id, RunRow.body_json)
        .where(col(RunRow.run_id).in_(list(run_ids)))
        .order_by(col(RunRow.run_id))
    )
    return {r: b for r, b in session.exec(query).all()}


def recent_cards(session: Session, *, limit: int) -> list[str]:
    """The JSON of the ``limit`` newest current scorecards."""
    query = (
        select(ScorecardRow.scorecard_json)
        .order_by(col(ScorecardRow.created_at).desc(), col(ScorecardRow.run_id))
        .limit(limit)
    )
    return list(session.exec(query).all())
