"""Migration 0014 on SQLite and PostgreSQL: runs held whole before it become per-seat holds
without loss. The seat the stored card flags is held with the run's review state (a cleared
run stays cleared), the run's other seats are not, an unscannable run holds every seat, and
every earlier decision is kept as a decision on the whole run."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge.core.domain.integrity import SeatTamper
from judge.core.domain.scorecard import Scorecard
from judge.server.store import reviews as review_repo
from judge.server.store.migrate import upgrade
from judge.server.store.summaries import seat_held_condition
from judge.server.store.tables import SeatRow, utcnow
from tests.factories import scorecard, seat
from tests.server.store.test_summaries import _insert_scored
from tests.server.store.test_tamper_store import bare_engine  # noqa: F401  (fixture)
from tests.tamper_cards import DETECTOR, seat_tamper, with_tamper


def _two_seats(run_id: str) -> Scorecard:
    return scorecard(run_id, seat("north", "agent-alpha"), seat("south", "agent-gamma"))


def _store_old(connection: sa.Connection, card: Scorecard, state: str, *, whole: bool) -> None:
    """A run as revision 0012 kept it: held as a whole in ``run_summary``."""
    _insert_scored(connection, card)
    seats = sa.table("seats", *(sa.column(c) for c in ("run_id", "seat", "agent_id", "scored")))
    for name, result in card.seats.items():
        connection.execute(
            seats.insert().values(
                run_id=card.run_id, seat=name, agent_id=result.agent_id, scored=True
            )
        )
    summary = sa.table(
        "run_summary",
        *(
            sa.column(c)
            for c in ("run_id", "attempt", "review_state", "tamper_flagged", "unscannable")
        ),
    )
    connection.execute(
        summary.insert().values(
            run_id=card.run_id,
            attempt=1,
            review_state=state,
            tamper_flagged=True,
            unscannable=whole,
        )
    )
    reviews = sa.table(
        "safety_reviews",
        *(
            sa.column(c)
            for c in ("run_id", "decision", "note", "attempt", "reviewed_by", "reviewed_at")
        ),
    )
    if state != "none":
        connection.execute(
            reviews.insert().values(
                run_id=card.run_id,
                decision=state,
                note="old",
                attempt=1,
                reviewed_by="o",
                reviewed_at=utcnow(),
            )
        )


def _seats(engine: Engine) -> dict[tuple[str, str], tuple[bool, str]]:
    with Session(engine) as session:
        rows = session.exec(select(SeatRow)).all()
        return {(r.run_id, r.seat): (r.integrity_flagged, r.review_state) for r in rows}


def test_held_runs_become_per_seat_holds_without_loss(bare_engine: Engine) -> None:  # noqa: F811
    upgrade(bare_engine, "0012_unscannable")
    never = SeatTamper(flagged=True, unscannable=True, detector_version=DETECTOR)
    with bare_engine.begin() as connection:
        _store_old(
            connection,
            with_tamper(_two_seats("open-1"), "north", seat_tamper()),
            "none",
            whole=False,
        )
        _store_old(
            connection,
            with_tamper(_two_seats("cleared-1"), "south", seat_tamper()),
            "cleared",
            whole=False,
        )
        whole = with_tamper(with_tamper(_two_seats("whole-1"), "north", never), "south", never)
        _store_old(connection, whole, "escalated", whole=True)

    upgrade(bare_engine)

    assert _seats(bare_engine) == {
        ("open-1", "north"): (True, "none"),
        ("open-1", "south"): (False, "none"),
        ("cleared-1", "north"): (False, "none"),
        ("cleared-1", "south"): (True, "cleared"),
        ("whole-1", "north"): (True, "escalated"),
        ("whole-1", "south"): (True, "escalated"),
    }
    with Session(bare_engine) as session:
        held = session.exec(select(SeatRow.run_id, SeatRow.seat).where(seat_held_condition()))
        assert sorted(held.all()) == [
            ("open-1", "north"),
            ("whole-1", "north"),
            ("whole-1", "south"),
        ]
        kept = review_repo.reviews_of(session, run_id="cleared-1")
        assert [(r.decision, r.seat, r.note) for r in kept] == [("cleared", None, "old")]
