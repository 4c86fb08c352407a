"""Each stored pass keeps how the backend held its reply to the verdict's shape (``json_schema``,
``json_object`` with the schema, the embedded judge's ``grammar``, or ``none``; docs/scoring.md,
"Reply format"), so a resumed run's era still says which format its passes were sent in. A pass
stored before this revision has none recorded (null): the era reads only recorded formats.

Revision ID: 0019_reply_format
Revises: 0018_rubric_maps
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_reply_format"
down_revision = "0018_rubric_maps"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("passes") as batch:
        batch.add_column(sa.Column("reply_format", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("passes") as batch:
        batch.drop_column("reply_format")
