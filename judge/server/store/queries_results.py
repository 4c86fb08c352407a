"""Repository functions for what is read across runs: scorecards by run, repetitions for
stability (runs where the agent's seat is held for review left out, docs/integrity.md), the runs of a submission."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlmodel import Session, col, select

from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.server.store.runs import stored_run
from judge.server.store.summaries import agent_not_held
from judge.server.store.tables import RunRow, ScorecardRow, SeatRow, SubmissionRunRow


class ScoredRun(NamedTuple):
    run: Run
    card: Scorecard


def scorecards_for(session: Session, *, run_ids: Sequence[str]) -> dict[str, Scorecard]:
    """The stored scorecards of those runs that have one, by run id."""
    query = select(ScorecardRow).where(col(ScorecardRow.run_id).in_(list(run_ids)))
    return {
        r.run_id: Scorecard.model_validate_json(r.scorecard_json) for r in session.exec(query).all()
    }


def _same(column: Any, value: Any) -> Any:
    """``column`` equals ``value``, where None matches only None."""
    return col(column).is_(None) if value is None else col(column) == value


def _scored_seats_of(agent_id: str) -> Any:
    return select(SeatRow.run_id).where(SeatRow.agent_id == agent_id, col(SeatRow.scored).is_(True))


def repetitions(
    session: Session,
    *,
    agent_id: str,
    scenario_id: str,
    seed: int | None,
    adversary_config: str | None,
) -> list[ScoredRun]:
    """Scored runs of one scenario, seed and adversary config where the agent held a scored seat
    (runs where its seat is held for review left out; another seat's hold does not count)."""
    query = (
        select(RunRow, ScorecardRow)
        .join(ScorecardRow, col(ScorecardRow.run_id) == col(RunRow.run_id))
        .where(RunRow.scenario_id == scenario_id, _same(RunRow.seed, seed))
        .where(_same(RunRow.adversary_config, adversary_config))
        .where(
            col(RunRow.run_id).in_(_scored_seats_of(agent_id)),
            agent_not_held(RunRow.run_id, agent_id),
        )
        .order_by(col(RunRow.created_at), col(RunRow.run_id))
    )
    return [
        ScoredRun(stored_run(r), Scorecard.model_validate_json(c.scorecard_json))
        for r, c in session.exec(query).all()
    ]


def submission_run_ids(session: Session, *, submission_id: str) -> list[str]:
    query = select(SubmissionRunRow.run_id).where(SubmissionRunRow.submission_id == submission_id)
    return sorted(session.exec(query).all())


def standing_run_ids(
    session: Session, *, agent_id: str, scenario_id: str, era_id: str, seat: str | None = None
) -> list[str]:
    """Every scored, ranked-eligible run of the scenario scored in ``era_id`` where the agent
    held a scored seat (``seat`` only, when given: what one agent key reads): the runs its
    standing there counts (docs/scoring.md)."""
    seated = _scored_seats_of(agent_id)
    if seat is not None:
        seated = seated.where(SeatRow.seat == seat)
    query = (
        select(ScorecardRow.run_id)
        .join(RunRow, col(RunRow.run_id) == col(ScorecardRow.run_id))
        .where(RunRow.scenario_id == scenario_id, ScorecardRow.measurement_era == era_id)
        .where(col(ScorecardRow.ranked_eligible).is_(True))
        .where(col(RunRow.run_id).in_(seated))
    )
    return sorted(session.exec(query).all())
