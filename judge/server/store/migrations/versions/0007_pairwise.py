"""Pairwise verdicts: one row per pair, trait and pairwise era, both orders inside.

Revision ID: 0007_pairwise
Revises: 0006_tamper
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_pairwise"
down_revision = "0006_tamper"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pairwise_verdicts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("era_id", sa.String(40), nullable=False),
        sa.Column("scenario_id", sa.String(200), nullable=False),
        sa.Column("trait", sa.String(200), nullable=False),
        sa.Column("judge_model", sa.String(200), nullable=False),
        sa.Column("run_a", sa.String(200), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("seat_a", sa.String(200), nullable=False),
        sa.Column("agent_a", sa.String(200), nullable=False),
        sa.Column("run_b", sa.String(200), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("seat_b", sa.String(200), nullable=False),
        sa.Column("agent_b", sa.String(200), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=True),
        sa.Column("flipped", sa.Boolean(), nullable=True),
        sa.Column("verdict_json", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(
            "era_id", "trait", "run_a", "seat_a", "run_b", "seat_b", name="uq_pairwise_verdict"
        ),
    )
    op.create_index("ix_pairwise_board", "pairwise_verdicts", ["scenario_id", "era_id", "trait"])
    op.create_index("ix_pairwise_verdicts_agent_a", "pairwise_verdicts", ["agent_a"])
    op.create_index("ix_pairwise_verdicts_agent_b", "pairwise_verdicts", ["agent_b"])


def downgrade() -> None:
    op.drop_table("pairwise_verdicts")
