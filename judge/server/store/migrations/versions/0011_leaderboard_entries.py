"""Stored leaderboard entries, so a board read parses no scorecard (docs/scoring.md,
"Leaderboards"), filled for the submissions finalized before this revision; an index to find
a run's submissions (the rescore hook asks it) and one that pages an agent key's own runs
newest first without sorting them (docs/deploy.md, "Read performance").

Revision ID: 0011_leaderboard_entries
Revises: 0010_budgets
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_leaderboard_entries"
down_revision = "0010_budgets"
branch_labels = None
depends_on = None

FINALIZED = ("complete", "incomplete")
SUBMISSION_COLUMNS = (
    "submission_id", "agent_id", "scenario_id", "status", "measurement_era",
    "leaderboard_class", "visibility", "created_by",
)  # fmt: skip
ENTRY_COLUMNS = (
    "submission_id", "run_id", "seat", "seat_order", "scenario_id", "submission_era", "era_id",
    "agent_id", "leaderboard_class", "visibility", "ranked_eligible", "participation_gated",
    "composite", "objectives_json",
)  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "leaderboard_entries",
        sa.Column(
            "submission_id",
            sa.String(200),
            sa.ForeignKey("submissions.submission_id"),
            primary_key=True,
        ),
        sa.Column("run_id", sa.String(200), sa.ForeignKey("runs.run_id"), primary_key=True),
        sa.Column("seat", sa.String(200), primary_key=True),
        sa.Column("seat_order", sa.Integer(), nullable=False),
        sa.Column("scenario_id", sa.String(200), nullable=False),
        sa.Column("submission_era", sa.String(40), nullable=False),
        sa.Column("era_id", sa.String(40), nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("leaderboard_class", sa.String(40), nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("ranked_eligible", sa.Boolean(), nullable=False),
        sa.Column("participation_gated", sa.Boolean(), nullable=False),
        sa.Column("composite", sa.Float(), nullable=True),
        sa.Column("objectives_json", sa.Text(), nullable=False),
    )
    op.create_index(
        "ix_leaderboard_entries_board",
        "leaderboard_entries",
        ["scenario_id", "submission_id", "run_id"],
    )
    op.create_index("ix_leaderboard_entries_run_id", "leaderboard_entries", ["run_id"])
    op.create_index("ix_submission_runs_run_id", "submission_runs", ["run_id"])
    op.create_index(
        "ix_runs_submitted_by_created_at", "runs", ["submitted_by", "created_at", "run_id"]
    )
    _backfill()


def _backfill() -> None:
    """Entries of every submission already finalized, by the rule new ones are written with
    (the tables named by their columns here, so a later column cannot break this step)."""
    from judge.core.domain.scorecard import Scorecard
    from judge.server.store.leaderboard_entries import entry_rows
    from judge.server.store.tables import SubmissionRow

    connection = op.get_bind()
    submissions = sa.table("submissions", *(sa.column(c) for c in SUBMISSION_COLUMNS))
    members = sa.table("submission_runs", sa.column("submission_id"), sa.column("run_id"))
    cards = sa.table("scorecards", sa.column("run_id"), sa.column("scorecard_json"))
    entries = sa.table("leaderboard_entries", *(sa.column(c) for c in ENTRY_COLUMNS))
    finalized = sa.select(*submissions.c).where(submissions.c.status.in_(FINALIZED))
    for values in connection.execute(finalized.order_by(submissions.c.submission_id)).mappings():
        submission = SubmissionRow(**values)
        query = (
            sa.select(cards.c.scorecard_json)
            .join(members, members.c.run_id == cards.c.run_id)
            .where(members.c.submission_id == submission.submission_id)
        )
        rows = [
            row.model_dump(include=set(ENTRY_COLUMNS))
            for (text,) in connection.execute(query)
            for row in entry_rows(submission, Scorecard.model_validate_json(text))
        ]
        if rows:
            connection.execute(entries.insert(), rows)


def downgrade() -> None:
    op.drop_index("ix_runs_submitted_by_created_at", "runs")
    op.drop_index("ix_submission_runs_run_id", "submission_runs")
    op.drop_table("leaderboard_entries")
