"""`judge align` proposals: one row per proposal with its held-out proof, and the adoption an
owner made of it (docs/alignment.md). Nothing existing changes.

Revision ID: 0016_alignments
Revises: 0015_ingest
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_alignments"
down_revision = "0015_ingest"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "alignments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("trait", sa.String(80), nullable=False),
        sa.Column("proposal_json", sa.Text(), nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("adopted_kind", sa.String(20), nullable=True),
        sa.Column("adopted_by", sa.String(200), nullable=True),
        sa.Column("adopted_at", WHEN, nullable=True),
        sa.Column("era_before", sa.String(40), nullable=True),
        sa.Column("era_after", sa.String(40), nullable=True),
        sa.Column("rubric_version", sa.Integer(), nullable=True),
    )
    op.create_index("ix_alignments_trait", "alignments", ["trait"])


def downgrade() -> None:
    op.drop_index("ix_alignments_trait", "alignments")
    op.drop_table("alignments")
