"""Initial schema: runs, seats, passes, scorecards, trait scores, submissions, eras,
custom rubrics, platform config and its audit trail, agent keys.

Revision ID: 0001_initial_schema
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_initial_schema"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def _id(length: int = 200) -> sa.String:
    return sa.String(length)


def upgrade() -> None:
    _runs()
    _scoring()
    _submissions()
    _configuration()


def _runs() -> None:
    op.create_table(
        "runs",
        sa.Column("run_id", _id(), primary_key=True),
        sa.Column("scenario_id", _id(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("adversary_config", _id(), nullable=True),
        sa.Column("body_json", sa.Text(), nullable=False),
        sa.Column("body_sha256", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("submitted_by", _id(), nullable=False),
        sa.Column("judge_model", _id(), nullable=True),
        sa.Column("passes_total", sa.Integer(), nullable=True),
        sa.Column("scoring_snapshot_json", sa.Text(), nullable=True),
        sa.Column("scoring_starts", sa.Integer(), nullable=False),
        sa.Column("ranked_eligible", sa.Boolean(), nullable=False),
        sa.Column("leaderboard_class", sa.String(40), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.Column("scored_at", WHEN, nullable=True),
    )
    op.create_index("ix_runs_scenario_id", "runs", ["scenario_id"])
    op.create_index("ix_runs_status", "runs", ["status"])
    op.create_table(
        "seats",
        sa.Column("run_id", _id(), sa.ForeignKey("runs.run_id"), primary_key=True),
        sa.Column("seat", _id(), primary_key=True),
        sa.Column("agent_id", _id(), nullable=False),
        sa.Column("scored", sa.Boolean(), nullable=False),
        sa.Column("composite", sa.Float(), nullable=True),
        sa.Column("objective_met_rate", sa.Float(), nullable=True),
        sa.Column("participation_gated", sa.Boolean(), nullable=True),
    )
    op.create_index("ix_seats_agent_id", "seats", ["agent_id"])


def _scoring() -> None:
    op.create_table(
        "passes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", _id(), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("seat", _id(), nullable=False),
        sa.Column("trait", sa.String(80), nullable=False),
        sa.Column("pass_index", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("rationale", sa.Text(), nullable=False),
        sa.Column("cited_turns_json", sa.Text(), nullable=False),
        sa.Column("raw_output", sa.Text(), nullable=False),
        sa.Column("model", _id(), nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), nullable=True),
        sa.Column("cached_prompt_tokens", sa.Integer(), nullable=True),
        sa.Column("completion_tokens", sa.Integer(), nullable=True),
        sa.Column("cost_usd", sa.Float(), nullable=True),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("parse_status", sa.String(20), nullable=False),
        sa.Column("unscored_reason", sa.Text(), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.UniqueConstraint("run_id", "seat", "trait", "pass_index", name="uq_pass"),
    )
    op.create_index("ix_passes_run_id", "passes", ["run_id"])
    op.create_table(
        "scorecards",
        sa.Column("run_id", _id(), sa.ForeignKey("runs.run_id"), primary_key=True),
        sa.Column("scorecard_json", sa.Text(), nullable=False),
        sa.Column("measurement_era", sa.String(40), nullable=False),
        sa.Column("participation_gated", sa.Boolean(), nullable=False),
        sa.Column("ranked_eligible", sa.Boolean(), nullable=False),
        sa.Column("leaderboard_class", sa.String(40), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_scorecards_measurement_era", "scorecards", ["measurement_era"])
    op.create_table(
        "trait_scores",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", _id(), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("seat", _id(), nullable=False),
        sa.Column("agent_id", _id(), nullable=False),
        sa.Column("scenario_id", _id(), nullable=False),
        sa.Column("trait", sa.String(80), nullable=False),
        sa.Column("pack", sa.String(20), nullable=False),
        sa.Column("mean", sa.Float(), nullable=True),
        sa.Column("variance", sa.Float(), nullable=True),
        sa.Column("n_scored", sa.Integer(), nullable=False),
        sa.Column("n_passes", sa.Integer(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("rubric_hash", sa.String(64), nullable=False),
        sa.Column("rubric_source", sa.String(20), nullable=False),
        sa.Column("measurement_era", sa.String(40), nullable=False),
        sa.UniqueConstraint("run_id", "seat", "trait", name="uq_trait_score"),
    )
    op.create_index("ix_trait_scores_run_id", "trait_scores", ["run_id"])
    op.create_index("ix_trait_scores_agent_id", "trait_scores", ["agent_id"])
    op.create_index("ix_trait_scores_scenario_id", "trait_scores", ["scenario_id"])


def _submissions() -> None:
    op.create_table(
        "submissions",
        sa.Column("submission_id", _id(), primary_key=True),
        sa.Column("agent_id", _id(), nullable=False),
        sa.Column("scenario_id", _id(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("measurement_era", sa.String(40), nullable=True),
        sa.Column("ranked_eligible", sa.Boolean(), nullable=False),
        sa.Column("leaderboard_class", sa.String(40), nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("summary_json", sa.Text(), nullable=True),
        sa.Column("created_by", _id(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("finalized_at", WHEN, nullable=True),
    )
    for column in ("agent_id", "scenario_id", "status", "measurement_era"):
        op.create_index(f"ix_submissions_{column}", "submissions", [column])
    op.create_table(
        "submission_runs",
        sa.Column(
            "submission_id", _id(), sa.ForeignKey("submissions.submission_id"), primary_key=True
        ),
        sa.Column("run_id", _id(), sa.ForeignKey("runs.run_id"), primary_key=True),
        sa.Column("added_at", WHEN, nullable=False),
    )
    op.create_table(
        "eras",
        sa.Column("era_id", sa.String(40), primary_key=True),
        sa.Column("stack_json", sa.Text(), nullable=False),
        sa.Column("opened_by", _id(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("opened_at", WHEN, nullable=False),
    )


def _configuration() -> None:
    op.create_table(
        "custom_rubrics",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("trait", sa.String(80), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.Column("anchor_0", sa.Text(), nullable=False),
        sa.Column("anchor_5", sa.Text(), nullable=False),
        sa.Column("anchor_1", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("created_by", _id(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("deleted_at", WHEN, nullable=True),
        sa.UniqueConstraint("trait", "version", name="uq_custom_rubric_version"),
    )
    op.create_index("ix_custom_rubrics_trait", "custom_rubrics", ["trait"])
    op.create_table(
        "platform_config",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("value_json", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_by", _id(), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_table(
        "config_audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("old_json", sa.Text(), nullable=True),
        sa.Column("new_json", sa.Text(), nullable=True),
        sa.Column("changed_by", _id(), nullable=False),
        sa.Column("changed_at", WHEN, nullable=False),
    )
    op.create_index("ix_config_audit_key", "config_audit", ["key"])
    op.create_table(
        "agent_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("prefix", sa.String(32), nullable=False, unique=True),
        sa.Column("key_sha256", sa.String(64), nullable=False),
        sa.Column("agent_id", _id(), nullable=False),
        sa.Column("seat", _id(), nullable=False),
        sa.Column("label", _id(), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("revoked_at", WHEN, nullable=True),
    )
    op.create_index("ix_agent_keys_agent_id", "agent_keys", ["agent_id"])


def downgrade() -> None:
    for table in (
        "agent_keys",
        "config_audit",
        "platform_config",
        "custom_rubrics",
        "eras",
        "submission_runs",
        "submissions",
        "trait_scores",
        "scorecards",
        "passes",
        "seats",
        "runs",
    ):
        op.drop_table(table)
