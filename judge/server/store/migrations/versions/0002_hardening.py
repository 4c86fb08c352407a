"""Hardening: why a run was not scored, in two parts: the sentence anyone who may see the
run reads (``reason``), and the internal detail only owners and the log see (``reason_detail``);
and how many scoring starts ended in a clean stop (``clean_stops``), so only crashes count
towards giving up while ``scoring_starts`` only ever grows (it fences superseded workers).

Revision ID: 0002_hardening
Revises: 0001_initial_schema
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_hardening"
down_revision = "0001_initial_schema"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("reason_detail", sa.Text(), nullable=True))
        batch.add_column(sa.Column("clean_stops", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("clean_stops")
        batch.drop_column("reason_detail")
