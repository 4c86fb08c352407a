"""Scorecard views stored as they are served: bytes, gzip form and ETag per view.

Revision ID: 0008_scorecard_views
Revises: 0007_pairwise
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_scorecard_views"
down_revision = "0007_pairwise"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # runs scored before this revision have no view: the first read renders and stores it
    op.create_table(
        "scorecard_views",
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), primary_key=True),
        sa.Column("view", sa.String(220), primary_key=True),
        sa.Column("etag", sa.String(80), nullable=False),
        sa.Column("config_tag", sa.String(80), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("body_gzip", sa.LargeBinary(), nullable=False),
        sa.Column("rendered_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("scorecard_views")
