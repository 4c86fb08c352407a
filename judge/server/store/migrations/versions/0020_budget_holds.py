"""Budgets: an owner's request for judge calls (a `judge align` proposal) holds its estimate
against the platform's daily limits from the check until its calls are kept, so two requests
checked at the same moment cannot both pass a limit together (docs/service.md, "Budgets").
Requests made before this revision held nothing.

Revision ID: 0020_budget_holds
Revises: 0019_reply_format
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_budget_holds"
down_revision = "0019_reply_format"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "budget_holds",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("purpose", sa.String(20), nullable=False),
        sa.Column("what", sa.String(200), nullable=False),
        sa.Column("tokens", sa.Integer(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_budget_holds_created_at", "budget_holds", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_budget_holds_created_at", "budget_holds")
    op.drop_table("budget_holds")
