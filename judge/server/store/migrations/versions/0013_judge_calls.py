"""Budgets: the judge calls made beside the passes and pairwise verdicts (a coaching answer,
the judge's own screen of a seat) are kept with their tokens and dollars, so today's spend,
and with it every daily limit, counts them (docs/service.md, "Cost and budgets"). Calls made
before this revision were not kept and count for nothing.

Revision ID: 0013_judge_calls
Revises: 0012_unscannable
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_judge_calls"
down_revision = "0012_unscannable"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "judge_calls",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("purpose", sa.String(20), nullable=False),
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("seat", sa.String(200), nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("tokens", sa.Integer(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_judge_calls_run_id", "judge_calls", ["run_id"])
    op.create_index("ix_judge_calls_agent_id", "judge_calls", ["agent_id"])
    op.create_index("ix_judge_calls_created_at", "judge_calls", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_judge_calls_created_at", "judge_calls")
    op.drop_index("ix_judge_calls_agent_id", "judge_calls")
    op.drop_index("ix_judge_calls_run_id", "judge_calls")
    op.drop_table("judge_calls")
