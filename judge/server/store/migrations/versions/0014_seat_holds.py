"""Score integrity: holds are per seat. A seat whose own events held judge-directed text is
held for review; the run's other seats keep their scores, leaderboard rows and stability
(an unscannable run has every seat held). Each seat row says whether it is flagged and the
latest owner decision on its hold; a decision row says which seat it was on (NULL: the whole
run, as every decision before this revision was).

Existing held runs migrate without loss: for each run flagged in ``run_summary``, the seats
its stored scorecard flags (every scored seat of an unscannable run, or of a run whose card
cannot be read) are flagged, and each takes the run's review state, so a cleared run stays
cleared and an undecided one stays held (docs/integrity.md, "Held for review").

Revision ID: 0014_seat_holds
Revises: 0013_judge_calls
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0014_seat_holds"
down_revision = "0013_judge_calls"
branch_labels = None
depends_on = None


def _card_flagged(scorecard_json: str | None) -> set[str] | None:
    """The seats the stored card flags; None when the card is missing or unreadable."""
    try:
        seats = json.loads(scorecard_json or "")["seats"]
        return {
            name
            for name, seat in seats.items()
            if isinstance(seat.get("tamper"), dict) and seat["tamper"].get("flagged")
        }
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _flag_seats(bind: Any, run_id: str, seats: set[str] | None, state: str) -> None:
    scope = "run_id = :run_id AND scored = :scored"
    params: dict[str, Any] = {"run_id": run_id, "scored": True, "flag": True, "state": state}
    if seats is not None:
        names = {f"s{i}": name for i, name in enumerate(sorted(seats))}
        scope += f" AND seat IN ({', '.join(':' + n for n in names)})"
        params.update(names)
    statement = f"UPDATE seats SET integrity_flagged = :flag, review_state = :state WHERE {scope}"
    bind.execute(sa.text(statement), params)


def _backfill() -> None:
    bind = op.get_bind()
    held = bind.execute(
        sa.text(
            "SELECT s.run_id, s.review_state, s.unscannable, c.scorecard_json FROM run_summary s "
            "LEFT JOIN scorecards c ON c.run_id = s.run_id WHERE s.tamper_flagged = :flag"
        ),
        {"flag": True},
    ).all()
    for run_id, state, whole, scorecard_json in held:
        seats = None if whole else _card_flagged(scorecard_json)
        _flag_seats(bind, run_id, seats or None, state or "none")


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("integrity_flagged", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("review_state", sa.String(length=20), nullable=False, server_default="none")
        )
    with op.batch_alter_table("safety_reviews") as batch:
        batch.add_column(sa.Column("seat", sa.String(length=200), nullable=True))
    _backfill()


def downgrade() -> None:
    with op.batch_alter_table("safety_reviews") as batch:
        batch.drop_column("seat")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("review_state")
        batch.drop_column("integrity_flagged")
