"""Passes that share their prompt: each stored pass keeps how many choices the request it came
from answered, more than one when the passes of its trait went as one request with OpenAI's
``n`` (docs/scoring.md, "Passes"), so a resumed run's card and era still say which passes were
shared. Every pass stored before this revision was a request of its own.

Revision ID: 0017_shared_passes
Revises: 0016_alignments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_shared_passes"
down_revision = "0016_alignments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("passes") as batch:
        batch.add_column(
            sa.Column("request_choices", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("passes") as batch:
        batch.drop_column("request_choices")
