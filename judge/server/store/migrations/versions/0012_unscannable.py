"""Score integrity: the run figures say whether the integrity scan of the run passed its
CPU-time budget (``JUDGE_SCAN_CPU_S``), so the review queue gives such a held run its own
reason, ``unscannable`` (docs/integrity.md). Runs scored before this revision were scanned
whole, so none is unscannable.

Revision ID: 0012_unscannable
Revises: 0011_leaderboard_entries
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_unscannable"
down_revision = "0011_leaderboard_entries"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("run_summary") as batch:
        batch.add_column(
            sa.Column("unscannable", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("run_summary") as batch:
        batch.drop_column("unscannable")
