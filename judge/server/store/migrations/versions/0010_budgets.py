"""Budgets: what each pairwise verdict cost, beside its passes, and indexes on the time a
pass or verdict was made, so today's spend is summed by SQL (docs/service.md, "Cost and
budgets"). Verdicts stored before this revision count as unpriced with no tokens. The
runs table's figures gain the run's cost (dollars, tokens), which the console sorts on;
runs scored before it show none.

Revision ID: 0010_budgets
Revises: 0007_pairwise
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_budgets"
down_revision = "0009_labels"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pairwise_verdicts") as batch:
        batch.add_column(sa.Column("cost_usd", sa.Float(), nullable=True))
        batch.add_column(sa.Column("tokens", sa.Integer(), nullable=False, server_default="0"))
        batch.create_index("ix_pairwise_verdicts_created_at", ["created_at"])
    with op.batch_alter_table("passes") as batch:
        batch.create_index("ix_passes_created_at", ["created_at"])
    with op.batch_alter_table("run_summary") as batch:
        batch.add_column(sa.Column("cost_usd", sa.Float(), nullable=True))
        batch.add_column(sa.Column("tokens", sa.Integer(), nullable=True))
        batch.create_index("ix_run_summary_cost_usd", ["cost_usd"])


def downgrade() -> None:
    with op.batch_alter_table("run_summary") as batch:
        batch.drop_index("ix_run_summary_cost_usd")
        batch.drop_column("tokens")
        batch.drop_column("cost_usd")
    with op.batch_alter_table("passes") as batch:
        batch.drop_index("ix_passes_created_at")
    with op.batch_alter_table("pairwise_verdicts") as batch:
        batch.drop_index("ix_pairwise_verdicts_created_at")
        batch.drop_column("tokens")
        batch.drop_column("cost_usd")
