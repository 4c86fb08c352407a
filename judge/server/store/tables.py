"""SQLModel tables of the store (``*Row``), made by the migrations. JSON documents are kept as
the exact text they were stored with; the columns beside them are what queries filter on."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """Timestamps read back from SQLite lose their zone; every stored time is UTC."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class UtcDateTime(sa.types.TypeDecorator[datetime]):
    """A time column that holds UTC on both stores, so SQLite compares instants as text
    correctly (a time without a zone is taken as UTC; docs/service.md, "Times")."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        return None if value is None else as_utc(value).astimezone(UTC)

    process_result_value = process_bind_param  # read back as written: UTC


class RunRow(SQLModel, table=True):
    """A submitted run: its exact body, the body's sha256 (idempotency) and scoring status."""

    __tablename__ = "runs"

    run_id: str = Field(primary_key=True, max_length=200)
    scenario_id: str = Field(index=True, max_length=200)
    seed: int | None = None
    adversary_config: str | None = Field(default=None, max_length=200)
    body_json: str = Field(sa_type=sa.Text())
    body_sha256: str = Field(max_length=64)
    status: str = Field(default="queued", index=True, max_length=16)
    reason: str | None = Field(default=None, sa_type=sa.Text())
    reason_detail: str | None = Field(default=None, sa_type=sa.Text())
    submitted_by: str = Field(max_length=200)
    judge_model: str | None = Field(default=None, max_length=200)
    passes_total: int | None = None
    scoring_snapshot_json: str | None = Field(default=None, sa_type=sa.Text())
    scoring_starts: int = 0
    clean_stops: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    ranked_eligible: bool = True
    leaderboard_class: str = Field(default="ranked", max_length=40)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    scored_at: datetime | None = Field(default=None, sa_type=UtcDateTime())


class SeatRow(SQLModel, table=True):
    """Who sat where in a run; the per-seat results are filled in when the run is scored."""

    __tablename__ = "seats"

    run_id: str = Field(primary_key=True, foreign_key="runs.run_id", max_length=200)
    seat: str = Field(primary_key=True, max_length=200)
    agent_id: str = Field(index=True, max_length=200)
    scored: bool = True
    composite: float | None = None
    objective_met_rate: float | None = None
    participation_gated: bool | None = None
    #: the seat is held for an owner's review of judge-directed text in its own events (or the
    #: run was unscannable); the run's other seats are not (migration ``0014_seat_holds``)
    integrity_flagged: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    #: the latest owner decision on this seat's hold: none, cleared, escalated, rescore_requested
    review_state: str = Field(
        default="none", max_length=20, sa_column_kwargs={"server_default": "none"}
    )


class PassRow(SQLModel, table=True):
    """One judge pass, stored the moment it finishes (every JudgePass field)."""

    __tablename__ = "passes"
    __table_args__ = (sa.UniqueConstraint("run_id", "seat", "trait", "pass_index", name="uq_pass"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.run_id", index=True, max_length=200)
    seat: str = Field(max_length=200)
    trait: str = Field(max_length=80)
    pass_index: int
    score: float | None = None
    rationale: str = Field(default="", sa_type=sa.Text())
    cited_turns_json: str = Field(default="[]", sa_type=sa.Text())
    raw_output: str = Field(default="", sa_type=sa.Text())
    model: str = Field(max_length=200)
    prompt_tokens: int | None = None
    cached_prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    latency_ms: float = 0.0
    attempts: int = 1
    parse_status: str = Field(max_length=20)
    unscored_reason: str | None = Field(default=None, sa_type=sa.Text())
    sampled_score: float | None = None
    expected_score: float | None = None
    score_distribution_json: str | None = Field(default=None, sa_type=sa.Text())
    score_entropy_bits: float | None = None
    distribution_partial: bool = Field(
        default=False, sa_column_kwargs={"server_default": sa.false()}
    )
    structured_output: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    request_choices: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    reply_format: str | None = Field(default=None, max_length=20)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime(), index=True)


class ScorecardRow(SQLModel, table=True):
    """The assembled owner scorecard of a run (all seats, safety blocks included)."""

    __tablename__ = "scorecards"

    run_id: str = Field(primary_key=True, foreign_key="runs.run_id", max_length=200)
    scorecard_json: str = Field(sa_type=sa.Text())
    measurement_era: str = Field(index=True, max_length=40)
    participation_gated: bool
    ranked_eligible: bool
    leaderboard_class: str = Field(max_length=40)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class TraitScoreRow(SQLModel, table=True):
    """One trait's result for one seat of a run: what leaderboards and stability read."""

    __tablename__ = "trait_scores"
    __table_args__ = (sa.UniqueConstraint("run_id", "seat", "trait", name="uq_trait_score"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.run_id", index=True, max_length=200)
    seat: str = Field(max_length=200)
    agent_id: str = Field(index=True, max_length=200)
    scenario_id: str = Field(index=True, max_length=200)
    trait: str = Field(max_length=80)
    pack: str = Field(max_length=20)
    mean: float | None = None
    variance: float | None = None
    n_scored: int
    n_passes: int
    complete: bool
    rubric_hash: str = Field(max_length=64)
    rubric_source: str = Field(max_length=20)
    measurement_era: str = Field(max_length=40)


class SubmissionRow(SQLModel, table=True):
    """A set of runs by one agent on one scenario, finalized into one leaderboard entry."""

    __tablename__ = "submissions"

    submission_id: str = Field(primary_key=True, max_length=200)
    agent_id: str = Field(index=True, max_length=200)
    scenario_id: str = Field(index=True, max_length=200)
    status: str = Field(default="open", index=True, max_length=16)
    measurement_era: str | None = Field(default=None, index=True, max_length=40)
    ranked_eligible: bool = True
    leaderboard_class: str = Field(default="ranked", max_length=40)
    visibility: str = Field(default="public", max_length=16)
    reason: str | None = Field(default=None, sa_type=sa.Text())
    summary_json: str | None = Field(default=None, sa_type=sa.Text())
    created_by: str = Field(max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    finalized_at: datetime | None = Field(default=None, sa_type=UtcDateTime())


class SubmissionRunRow(SQLModel, table=True):
    """Membership of a run in a submission."""

    __tablename__ = "submission_runs"

    submission_id: str = Field(
        primary_key=True, foreign_key="submissions.submission_id", max_length=200
    )
    run_id: str = Field(primary_key=True, foreign_key="runs.run_id", index=True, max_length=200)
    added_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class EraRow(SQLModel, table=True):
    """A measurement era: opened whenever the measurement stack moves."""

    __tablename__ = "eras"

    era_id: str = Field(primary_key=True, max_length=40)
    stack_json: str = Field(sa_type=sa.Text())
    opened_by: str = Field(max_length=200)
    reason: str = Field(sa_type=sa.Text())
    opened_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class CustomRubricRow(SQLModel, table=True):
    """One version of an owner's custom rubric for a trait; deletes keep the history."""

    __tablename__ = "custom_rubrics"
    __table_args__ = (sa.UniqueConstraint("trait", "version", name="uq_custom_rubric_version"),)

    id: int | None = Field(default=None, primary_key=True)
    trait: str = Field(index=True, max_length=80)
    version: int
    definition: str = Field(sa_type=sa.Text())
    anchor_0: str = Field(sa_type=sa.Text())
    anchor_5: str = Field(sa_type=sa.Text())
    anchor_1: str = Field(sa_type=sa.Text())
    calibration_map_json: str | None = Field(
        default=None,
        sa_type=sa.Text(),
        description="the calibration map an adopted alignment put on the trait (docs/alignment.md)",
    )
    content_hash: str = Field(max_length=64)
    created_by: str = Field(max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    deleted_at: datetime | None = Field(default=None, sa_type=UtcDateTime())


class PlatformConfigRow(SQLModel, table=True):
    """A runtime setting (``platform_config``): key -> validated JSON value."""

    __tablename__ = "platform_config"

    key: str = Field(primary_key=True, max_length=80)
    value_json: str = Field(sa_type=sa.Text())
    version: int = 1
    updated_by: str = Field(max_length=200)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class ConfigAuditRow(SQLModel, table=True):
    """Who changed which platform_config key, when, from what to what."""

    __tablename__ = "config_audit"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, max_length=80)
    old_json: str | None = Field(default=None, sa_type=sa.Text())
    new_json: str | None = Field(default=None, sa_type=sa.Text())
    changed_by: str = Field(max_length=200)
    changed_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class AgentKeyRow(SQLModel, table=True):
    """An agent key: only its sha256 and a short public prefix for lookup are kept."""

    __tablename__ = "agent_keys"

    id: int | None = Field(default=None, primary_key=True)
    prefix: str = Field(unique=True, max_length=32)
    key_sha256: str = Field(max_length=64)
    agent_id: str = Field(index=True, max_length=200)
    seat: str = Field(max_length=200)
    label: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    revoked_at: datetime | None = Field(default=None, sa_type=UtcDateTime())


class CoachingRow(SQLModel, table=True):
    """Coaching notes of one seat of a run in one measurement era (a cache of the judge's answer)."""

    __tablename__ = "coaching"

    run_id: str = Field(primary_key=True, foreign_key="runs.run_id", max_length=200)
    seat: str = Field(primary_key=True, max_length=200)
    era_id: str = Field(primary_key=True, max_length=40)
    body_json: str = Field(sa_type=sa.Text())
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class JudgeCallRow(SQLModel, table=True):
    """One judge call made beside the passes and pairwise verdicts: a coaching answer, one
    seat's screen by the judge (docs/integrity.md) or a call of an owner's `judge align`
    proposal (agent_id empty: no agent pays for it; docs/alignment.md); today's spend sums
    them with the passes."""

    __tablename__ = "judge_calls"

    id: int | None = Field(default=None, primary_key=True)
    purpose: str = Field(max_length=20, description="coaching, judge_screen or align")
    run_id: str = Field(foreign_key="runs.run_id", index=True, max_length=200)
    seat: str = Field(max_length=200)
    agent_id: str = Field(index=True, max_length=200)
    model: str = Field(max_length=200)
    tokens: int = Field(default=0, description="prompt plus completion tokens")
    cost_usd: float | None = Field(default=None, description="None: the call had no price")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime(), index=True)


class BudgetHoldRow(SQLModel, table=True):
    """Judge calls asked for and not yet made, held against the daily limits from the moment
    their estimate was checked until the calls made are kept (a `judge align` proposal, or one
    agent's seats of a run being scored; docs/service.md, "Budget holds"); today's spend sums
    them with the calls until ``expires_at``, so a hold whose process died stops counting (and
    may be cleared)."""

    __tablename__ = "budget_holds"

    id: int | None = Field(default=None, primary_key=True)
    purpose: str = Field(max_length=20, description="what holds it: align, run")
    what: str = Field(max_length=200, description="the request, in words (for owners)")
    tokens: int = Field(default=0, description="the estimate's prompt plus completion tokens")
    cost_usd: float | None = Field(default=None, description="None: the estimate had no price")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime(), index=True)
    expires_at: datetime = Field(
        sa_type=UtcDateTime(), description="the hold counts until then (JUDGE_BUDGET_HOLD_S)"
    )
    created_by: str | None = Field(
        default=None, max_length=200, description="who asked (None: held before it was kept)"
    )
    run_id: str | None = Field(
        default=None,
        index=True,
        max_length=200,
        description="the run being scored (None: an owner's request)",
    )
    agent_id: str | None = Field(
        default=None, max_length=200, description="the agent whose seats it judges (None: none)"
    )


class PairwiseVerdictRow(SQLModel, table=True):
    """One pair's pairwise verdict on one trait in one pairwise era (docs/scoring.md)."""

    __tablename__ = "pairwise_verdicts"
    __table_args__ = (
        sa.UniqueConstraint(
            "era_id", "trait", "run_a", "seat_a", "run_b", "seat_b", name="uq_pairwise_verdict"
        ),
        sa.Index("ix_pairwise_board", "scenario_id", "era_id", "trait"),
    )

    id: int | None = Field(default=None, primary_key=True)
    era_id: str = Field(max_length=40)
    scenario_id: str = Field(max_length=200)
    trait: str = Field(max_length=200)
    judge_model: str = Field(max_length=200)
    run_a: str = Field(foreign_key="runs.run_id", max_length=200)
    seat_a: str = Field(max_length=200)
    agent_a: str = Field(index=True, max_length=200)
    run_b: str = Field(foreign_key="runs.run_id", max_length=200)
    seat_b: str = Field(max_length=200)
    agent_b: str = Field(index=True, max_length=200)
    outcome: str | None = Field(default=None, max_length=8)
    flipped: bool | None = None
    verdict_json: str = Field(sa_type=sa.Text())
    cost_usd: float | None = Field(default=None, description="None: a pass had no price")
    tokens: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime(), index=True)


class LeaderboardEntryRow(SQLModel, table=True):
    """One seat of one run on its finalized submission's boards (docs/scoring.md, "Leaderboards")."""

    __tablename__ = "leaderboard_entries"
    __table_args__ = (
        sa.Index("ix_leaderboard_entries_board", "scenario_id", "submission_id", "run_id"),
    )

    submission_id: str = Field(
        primary_key=True, foreign_key="submissions.submission_id", max_length=200
    )
    run_id: str = Field(primary_key=True, foreign_key="runs.run_id", index=True, max_length=200)
    seat: str = Field(primary_key=True, max_length=200)
    seat_order: int
    scenario_id: str = Field(max_length=200)
    submission_era: str = Field(max_length=40)
    era_id: str = Field(max_length=40)
    agent_id: str = Field(max_length=200)
    leaderboard_class: str = Field(max_length=40)
    visibility: str = Field(max_length=16)
    ranked_eligible: bool
    participation_gated: bool
    composite: float | None = None
    objectives_json: str = Field(sa_type=sa.Text())


def table_of(row: type[SQLModel]) -> sa.Table:
    """The SQLAlchemy table of a row class (SQLModel does not type ``__table__``)."""
    table: sa.Table = row.__table__  # type: ignore[attr-defined]
    return table


_RUNS = table_of(RunRow)
#: Newest-first keyset paging of the runs table reads this index instead of sorting.
RUNS_NEWEST_FIRST = sa.Index("ix_runs_created_at_run_id", _RUNS.c.created_at, _RUNS.c.run_id)
#: An agent key's own run list walks this index (docs/deploy.md, "Read performance").
RUNS_SUBMITTED_NEWEST_FIRST = sa.Index(
    "ix_runs_submitted_by_created_at", _RUNS.c.submitted_by, _RUNS.c.created_at, _RUNS.c.run_id
)
