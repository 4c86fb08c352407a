"""Repository functions for assembled scorecards and the per-trait rows beside them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from judge.core.domain.scorecard import MeasurementEra, Scorecard, SeatScorecard
from judge.server.store import leaderboard_entries as entry_repo
from judge.server.store import runs as run_repo
from judge.server.store import summaries as summary_repo
from judge.server.store.tables import ScorecardRow, SeatRow, TraitScoreRow, utcnow

#: The trait result's fields kept as columns of its trait row.
_TRAIT_COLUMNS = {
    "pack",
    "mean",
    "variance",
    "n_scored",
    "n_passes",
    "complete",
    "rubric_hash",
    "rubric_source",
}


def trait_values(card: Scorecard, seat: SeatScorecard) -> list[dict[str, Any]]:
    """Column values of one seat's trait rows (capability traits and safety block)."""
    results = {**seat.traits, **(seat.safety_block or {})}
    return [
        {
            "run_id": card.run_id,
            "seat": seat.seat,
            "agent_id": seat.agent_id,
            "scenario_id": card.scenario_id,
            "trait": name,
            **result.model_dump(include=_TRAIT_COLUMNS),
            "measurement_era": card.measurement_era.era_id,
        }
        for name, result in results.items()
    ]


def seat_result_values(seat: SeatScorecard | None) -> dict[str, Any]:
    """The seat row's result columns (all None for a seat the card does not score)."""
    return {
        "composite": seat.composite if seat else None,
        "objective_met_rate": seat.objectives.objective_met_rate if seat else None,
        "participation_gated": seat.participation_gated if seat else None,
    }


def card_values(card: Scorecard) -> dict[str, Any]:
    """Column values of a run's scorecard row."""
    return {
        "run_id": card.run_id,
        "scorecard_json": card.model_dump_json(),
        "measurement_era": card.measurement_era.era_id,
        "participation_gated": card.participation_gated,
        "ranked_eligible": card.ranked_eligible,
        "leaderboard_class": card.leaderboard_class,
        "created_at": utcnow(),
    }


def _seat_results(session: Session, card: Scorecard) -> None:
    for seat in card.seats.values():
        row = session.get(SeatRow, (card.run_id, seat.seat))
        if row is None:
            raise LookupError(f"seat {seat.seat!r} of run {card.run_id!r} is not stored")
        for name, value in seat_result_values(seat).items():
            setattr(row, name, value)
        session.add(row)


def add_scorecard(session: Session, *, card: Scorecard) -> None:
    """Add a run's scorecard, trait rows, seat results and ranked eligibility in one transaction."""
    session.add(ScorecardRow(**card_values(card)))
    for seat in card.seats.values():
        session.add_all([TraitScoreRow(**values) for values in trait_values(card, seat)])
    _seat_results(session, card)
    summary_repo.put_figures(session, card=card)
    entry_repo.refresh_run_entries(session, card=card)
    session.flush()
    run_repo.mark_leaderboard_class(
        session,
        run_id=card.run_id,
        ranked_eligible=card.ranked_eligible,
        leaderboard_class=card.leaderboard_class,
    )


def get_scorecard(session: Session, *, run_id: str) -> Scorecard | None:
    row = session.get(ScorecardRow, run_id)
    return None if row is None else Scorecard.model_validate_json(row.scorecard_json)


def scorecards_in_order(
    session: Session, *, era: str | None = None, batch: int = 500
) -> Iterator[Scorecard]:
    """Every stored owner scorecard (of one era, if given), in run id order, read in batches."""
    query = select(ScorecardRow.scorecard_json).order_by(col(ScorecardRow.run_id))
    if era is not None:
        query = query.where(ScorecardRow.measurement_era == era)
    for text in session.exec(query.execution_options(yield_per=batch)):
        yield Scorecard.model_validate_json(text)


def recent_eras(session: Session) -> Iterator[MeasurementEra]:
    """The eras stored scorecards were scored in, the one scored in most recently first (each
    read off one of its cards), read lazily: a caller stops at the first it needs."""
    latest = sa.func.max(ScorecardRow.created_at)
    query = (
        select(ScorecardRow.measurement_era, latest)
        .group_by(col(ScorecardRow.measurement_era))
        .order_by(latest.desc(), col(ScorecardRow.measurement_era))
    )
    for era_id, _ in session.exec(query).all():
        one = select(ScorecardRow.scorecard_json).where(ScorecardRow.measurement_era == era_id)
        text = session.exec(one.limit(1)).first()
        if text is not None:
            yield Scorecard.model_validate_json(text).measurement_era
