"""Budgets: a run being scored holds its estimate too. Each budget hold may name the run that
took it and the agent whose seats its estimate judges, so the check of a run's estimate and
its hold are one serialised transaction (as an owner's `judge align` proposal's already are),
an agent's daily limit counts its runs in flight, and the run's end drops its holds with the
passes it made (docs/service.md, "Budget holds"). Holds taken before this revision name no
run and no agent, as before.

Revision ID: 0022_run_holds
Revises: 0021_hold_expiry
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_run_holds"
down_revision = "0021_hold_expiry"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("budget_holds") as batch:
        batch.add_column(sa.Column("run_id", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("agent_id", sa.String(length=200), nullable=True))
        batch.create_index("ix_budget_holds_run_id", ["run_id"])


def downgrade() -> None:
    with op.batch_alter_table("budget_holds") as batch:
        batch.drop_index("ix_budget_holds_run_id")
        batch.drop_column("agent_id")
        batch.drop_column("run_id")
