"""Bulk import of runs already scored: the rows the one-by-one path writes, in a few statements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import insert
from sqlmodel import Session

from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.server.store.runs import MATCHED_ON
from judge.server.store.scorecards import card_values, seat_result_values, trait_values
from judge.server.store.summaries import insert_figures
from judge.server.store.tables import RunRow, ScorecardRow, SeatRow, TraitScoreRow, utcnow


class PrescoredRun(NamedTuple):
    run: Run
    body_json: str
    body_sha256: str
    card: Scorecard
    submitted_by: str


def _run_values(item: PrescoredRun) -> dict[str, Any]:
    run, card, now = item.run, item.card, utcnow()
    return {
        "run_id": run.run_id,
        **run.model_dump(include=MATCHED_ON),
        "body_json": item.body_json,
        "body_sha256": item.body_sha256,
        "status": "scored",
        "submitted_by": item.submitted_by,
        "judge_model": card.judge_model,
        "scoring_starts": 1,
        "ranked_eligible": card.ranked_eligible,
        "leaderboard_class": card.leaderboard_class,
        "created_at": now,
        "updated_at": now,
        "scored_at": now,
    }


def _seat_values(item: PrescoredRun) -> list[dict[str, Any]]:
    return [
        {
            "run_id": item.run.run_id,
            "seat": seat.seat,
            "agent_id": seat.agent_id,
            "scored": seat.scored,
            **seat_result_values(item.card.seats.get(seat.seat)),
        }
        for seat in item.run.seats
    ]


def insert_scored_runs(session: Session, *, items: Sequence[PrescoredRun]) -> None:
    """Add runs with their seats, scorecards and trait rows (the caller commits)."""
    if not items:
        return
    session.execute(insert(RunRow), [_run_values(i) for i in items])
    session.execute(insert(SeatRow), [v for i in items for v in _seat_values(i)])
    session.execute(insert(ScorecardRow), [card_values(i.card) for i in items])
    traits = [
        v for i in items for seat in i.card.seats.values() for v in trait_values(i.card, seat)
    ]
    session.execute(insert(TraitScoreRow), traits)
    insert_figures(session, cards=[i.card for i in items])
