"""Tables of the owners' console: per-run figures, safety review decisions (an audit trail) and
the scorecards a rescore replaced (migration ``0004_console``)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from judge.server.store.tables import UtcDateTime, utcnow


class RunSummaryRow(SQLModel, table=True):
    """Figures of a run's current scorecard and its latest review state (one row per run)."""

    __tablename__ = "run_summary"

    run_id: str = Field(primary_key=True, foreign_key="runs.run_id", max_length=200)
    measurement_era: str | None = Field(default=None, index=True, max_length=40)
    composite: float | None = None
    objective_rate: float | None = None
    safety_min: float | None = Field(default=None, index=True)
    safety_spread: float | None = None
    spread_max: float | None = None
    gated: bool | None = None
    custom_rubric: bool | None = None
    attempt: int = 1
    review_state: str = Field(default="none", index=True, max_length=20)
    #: any seat is flagged (migration ``0006_tamper``); which seats, and whether each is still
    #: held, is on ``seats`` (``integrity_flagged``, ``review_state``; ``0014_seat_holds``)
    tamper_flagged: bool = Field(
        default=False, index=True, sa_column_kwargs={"server_default": sa.false()}
    )
    #: the integrity scan passed its CPU budget: held, never judged (migration ``0012_unscannable``)
    unscannable: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    #: what judging the run cost (made by migration ``0010_budgets``; None: no price)
    cost_usd: float | None = Field(default=None, index=True)
    tokens: int | None = None


class SafetyReviewRow(SQLModel, table=True):
    """One owner decision on a run's safety block: never updated, never deleted."""

    __tablename__ = "safety_reviews"

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.run_id", index=True, max_length=200)
    decision: str = Field(max_length=20)
    #: the seat whose hold the decision is on; None: the whole run (migration ``0014_seat_holds``)
    seat: str | None = Field(default=None, max_length=200)
    note: str = Field(default="", sa_type=sa.Text())
    attempt: int
    reviewed_by: str = Field(max_length=200)
    reviewed_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class ScorecardAttemptRow(SQLModel, table=True):
    """A scorecard (with all its passes) that a requested rescore replaced."""

    __tablename__ = "scorecard_attempts"
    __table_args__ = (sa.UniqueConstraint("run_id", "attempt", name="uq_scorecard_attempt"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.run_id", index=True, max_length=200)
    attempt: int
    scorecard_json: str = Field(sa_type=sa.Text())
    measurement_era: str = Field(max_length=40)
    archived_by: str = Field(max_length=200)
    archived_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
