"""A custom rubric version may carry the calibration map an owner adopted from `judge align`
(docs/alignment.md, "Adoption and the era"): the trait score of runs scored with that version is
the map of the judge's mean. Every version stored before this revision has no map.

Revision ID: 0018_rubric_maps
Revises: 0017_shared_passes
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_rubric_maps"
down_revision = "0017_shared_passes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("custom_rubrics") as batch:
        batch.add_column(sa.Column("calibration_map_json", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("custom_rubrics") as batch:
        batch.drop_column("calibration_map_json")
