"""The owners' console: run figures for the runs table, safety review decisions, scorecards
replaced by a rescore, and an index for newest-first paging. Figures of runs scored before
this revision are filled in from their stored scorecards.

Revision ID: 0004_console
Revises: 0001_initial_schema
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_console"
down_revision = "0003_coaching_cache"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)
BATCH = 500


def upgrade() -> None:
    op.create_index("ix_runs_created_at_run_id", "runs", ["created_at", "run_id"])
    _run_summary()
    _reviews()
    _backfill()


def _run_summary() -> None:
    op.create_table(
        "run_summary",
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), primary_key=True),
        sa.Column("measurement_era", sa.String(40), nullable=True),
        sa.Column("composite", sa.Float(), nullable=True),
        sa.Column("objective_rate", sa.Float(), nullable=True),
        sa.Column("safety_min", sa.Float(), nullable=True),
        sa.Column("safety_spread", sa.Float(), nullable=True),
        sa.Column("spread_max", sa.Float(), nullable=True),
        sa.Column("gated", sa.Boolean(), nullable=True),
        sa.Column("custom_rubric", sa.Boolean(), nullable=True),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("review_state", sa.String(20), nullable=False),
    )
    op.create_index("ix_run_summary_measurement_era", "run_summary", ["measurement_era"])
    op.create_index("ix_run_summary_safety_min", "run_summary", ["safety_min"])
    op.create_index("ix_run_summary_review_state", "run_summary", ["review_state"])


def _reviews() -> None:
    op.create_table(
        "safety_reviews",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("decision", sa.String(20), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("reviewed_by", sa.String(200), nullable=False),
        sa.Column("reviewed_at", WHEN, nullable=False),
    )
    op.create_index("ix_safety_reviews_run_id", "safety_reviews", ["run_id"])
    op.create_table(
        "scorecard_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("scorecard_json", sa.Text(), nullable=False),
        sa.Column("measurement_era", sa.String(40), nullable=False),
        sa.Column("archived_by", sa.String(200), nullable=False),
        sa.Column("archived_at", WHEN, nullable=False),
        sa.UniqueConstraint("run_id", "attempt", name="uq_scorecard_attempt"),
    )
    op.create_index("ix_scorecard_attempts_run_id", "scorecard_attempts", ["run_id"])


def _backfill() -> None:
    """Figures for every scorecard already stored, computed by the same rule as new ones."""
    from judge.core.domain.scorecard import Scorecard
    from judge.core.scoring.run_summary import run_figures

    connection = op.get_bind()
    cards = sa.table("scorecards", sa.column("run_id"), sa.column("scorecard_json"))
    summary = sa.table(
        "run_summary",
        *(
            sa.column(c)
            for c in (
                "run_id",
                "measurement_era",
                "composite",
                "objective_rate",
                "safety_min",
                "safety_spread",
                "spread_max",
                "gated",
                "custom_rubric",
                "attempt",
                "review_state",
            )
        ),
    )
    last = ""
    while True:
        query = sa.select(cards.c.run_id, cards.c.scorecard_json).where(cards.c.run_id > last)
        rows = connection.execute(query.order_by(cards.c.run_id).limit(BATCH)).all()
        if not rows:
            return
        values = [
            {
                "run_id": run_id,
                "attempt": 1,
                "review_state": "none",
                **run_figures(Scorecard.model_validate_json(text)).model_dump(),
            }
            for run_id, text in rows
        ]
        connection.execute(summary.insert(), values)
        last = rows[-1][0]


def downgrade() -> None:
    op.drop_table("scorecard_attempts")
    op.drop_table("safety_reviews")
    op.drop_table("run_summary")
    op.drop_index("ix_runs_created_at_run_id", "runs")
