"""Owners' labels: one row per owner's label of one trait of one seat of a run.

Revision ID: 0009_labels
Revises: 0007_pairwise
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_labels"
down_revision = "0008_scorecard_views"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "labels",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), nullable=False),
        sa.Column("seat", sa.String(200), nullable=False),
        sa.Column("trait", sa.String(80), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("labelled_by", sa.String(200), nullable=False),
        sa.Column("labelled_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rubric_version", sa.Integer(), nullable=False),
        sa.Column("rubric_hash", sa.String(64), nullable=False),
        sa.Column("era_id", sa.String(40), nullable=False),
        sa.Column("judge_model", sa.String(200), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
    )
    op.create_index("ix_labels_item", "labels", ["run_id", "seat", "trait"])


def downgrade() -> None:
    op.drop_table("labels")
