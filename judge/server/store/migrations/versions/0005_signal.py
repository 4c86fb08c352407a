"""Judge signal: each pass keeps the score the judge wrote, its distribution over the score
grid (0.0, 0.1, ..., 1.0) with its expected value and entropy, and whether the backend
enforced the verdict schema. Passes stored before this revision have none of these.

Revision ID: 0005_signal
Revises: 0004_console
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_signal"
down_revision = "0004_console"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("passes") as batch:
        batch.add_column(sa.Column("sampled_score", sa.Float(), nullable=True))
        batch.add_column(sa.Column("expected_score", sa.Float(), nullable=True))
        batch.add_column(sa.Column("score_distribution_json", sa.Text(), nullable=True))
        batch.add_column(sa.Column("score_entropy_bits", sa.Float(), nullable=True))
        batch.add_column(
            sa.Column(
                "distribution_partial", sa.Boolean(), nullable=False, server_default=sa.false()
            )
        )
        batch.add_column(
            sa.Column("structured_output", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("passes") as batch:
        for column in (
            "structured_output",
            "distribution_partial",
            "score_entropy_bits",
            "score_distribution_json",
            "expected_score",
            "sampled_score",
        ):
            batch.drop_column(column)
