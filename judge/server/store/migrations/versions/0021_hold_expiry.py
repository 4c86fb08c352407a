"""Budgets: each owner's budget hold keeps when it expires and who asked for it. A hold
counts in today's spend only until it expires (JUDGE_BUDGET_HOLD_S after it was taken), so a
process that died mid-request no longer keeps its estimate held until the end of the UTC day,
and `judge budget holds` lists the holds and clears the expired ones (docs/service.md,
"Budgets"). A hold taken before this revision expires an hour after it was taken (the default
bound) and names nobody.

Revision ID: 0021_hold_expiry
Revises: 0020_budget_holds
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from alembic import op

revision = "0021_hold_expiry"
down_revision = "0020_budget_holds"
branch_labels = None
depends_on = None

#: The bound a hold taken before this revision gets: the default of JUDGE_BUDGET_HOLD_S.
EARLIER_HOLD = timedelta(hours=1)


def upgrade() -> None:
    with op.batch_alter_table("budget_holds") as batch:
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("created_by", sa.String(length=200), nullable=True))
    holds = sa.table(
        "budget_holds",
        sa.column("id", sa.Integer()),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("expires_at", sa.DateTime(timezone=True)),
    )
    bind = op.get_bind()
    for hold_id, created_at in bind.execute(sa.select(holds.c.id, holds.c.created_at)).all():
        bind.execute(
            holds.update().where(holds.c.id == hold_id).values(expires_at=created_at + EARLIER_HOLD)
        )
    with op.batch_alter_table("budget_holds") as batch:
        batch.alter_column("expires_at", existing_type=sa.DateTime(timezone=True), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("budget_holds") as batch:
        batch.drop_column("created_by")
        batch.drop_column("expires_at")
