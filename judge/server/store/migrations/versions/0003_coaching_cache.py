"""Coaching cache: one computed coaching answer per run, seat and measurement era.

Revision ID: 0003_coaching_cache
Revises: 0001_initial_schema
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_coaching_cache"
down_revision = "0002_hardening"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "coaching",
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), primary_key=True),
        sa.Column("seat", sa.String(200), primary_key=True),
        sa.Column("era_id", sa.String(40), primary_key=True),
        sa.Column("body_json", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("coaching")
