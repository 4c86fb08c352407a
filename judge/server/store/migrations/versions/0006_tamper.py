"""Score integrity: the run figures say whether any seat's events held judge-directed text
(withheld from the judge), so the review queue, the runs table and the held-run rule of the
leaderboards and stability read one indexed column (docs/integrity.md). Runs scored
before this revision had no detector, so they are not flagged.

Revision ID: 0006_tamper
Revises: 0005_signal
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_tamper"
down_revision = "0005_signal"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("run_summary") as batch:
        batch.add_column(
            sa.Column("tamper_flagged", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_index("ix_run_summary_tamper_flagged", ["tamper_flagged"])


def downgrade() -> None:
    with op.batch_alter_table("run_summary") as batch:
        batch.drop_index("ix_run_summary_tamper_flagged")
        batch.drop_column("tamper_flagged")
