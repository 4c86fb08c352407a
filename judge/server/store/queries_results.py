"""Repository functions for what is read across runs: submissions' scorecards for
leaderboards, repetitions for stability, the runs of a submission.

Leaderboards and stability leave out runs held for review: judge-directed text was withheld
from their judge and no owner has cleared them yet (docs/integrity.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlmodel import Session, col, select

from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.core.domain.status import FINALIZED_SUBMISSION_STATUSES
from judge.server.store.runs import stored_run
from judge.server.store.summaries import not_held
from judge.server.store.tables import RunRow, ScorecardRow, SeatRow, SubmissionRow, SubmissionRunRow


class SubmissionCard(NamedTuple):
    """One run of a finalized submission, with what the submission decided about it."""

    submission_id: str
    agent_id: str
    visibility: str
    leaderboard_class: str
    card: Scorecard


class ScoredRun(NamedTuple):
    run: Run
    card: Scorecard


def scorecards_for(session: Session, *, run_ids: Sequence[str]) -> dict[str, Scorecard]:
    """The stored scorecards of those runs that have one, by run id."""
    query = select(ScorecardRow).where(col(ScorecardRow.run_id).in_(list(run_ids)))
    return {
        r.run_id: Scorecard.model_validate_json(r.scorecard_json) for r in session.exec(query).all()
    }


def finalized_submission_cards(
    session: Session, *, scenario_id: str, era_id: str | None = None
) -> list[SubmissionCard]:
    """Every scored run of every finalized submission on a scenario (in one era, if given)."""
    query = (
        select(SubmissionRow, ScorecardRow)
        .join(
            SubmissionRunRow,
            col(SubmissionRunRow.submission_id) == col(SubmissionRow.submission_id),
        )
        .join(ScorecardRow, col(ScorecardRow.run_id) == col(SubmissionRunRow.run_id))
        .where(SubmissionRow.scenario_id == scenario_id)
        .where(col(SubmissionRow.status).in_(FINALIZED_SUBMISSION_STATUSES))
        .where(not_held(ScorecardRow.run_id))
        .order_by(col(SubmissionRow.submission_id), col(ScorecardRow.run_id))
    )
    if era_id is not None:
        query = query.where(SubmissionRow.measurement_era == era_id)
    return [
        SubmissionCard(
            s.submission_id,
            s.agent_id,
            s.visibility,
            s.leaderboard_class,
            Scorecard.model_validate_json(c.scorecard_json),
        )
        for s, c in session.exec(query).all()
    ]


def repetitions(
    session: Session,
    *,
    agent_id: str,
    scenario_id: str,
    seed: int | None,
    adversary_config: str | None,
) -> list[ScoredRun]:
    """Scored runs of one scenario, seed and adversary config in which the agent held a scored
    seat, leaving out runs held for review."""
    query = (
        select(RunRow, ScorecardRow)
        .join(ScorecardRow, col(ScorecardRow.run_id) == col(RunRow.run_id))
        .where(RunRow.scenario_id == scenario_id)
        .where(col(RunRow.seed).is_(None) if seed is None else RunRow.seed == seed)
        .where(
            col(RunRow.adversary_config).is_(None)
            if adversary_config is None
            else RunRow.adversary_config == adversary_config
        )
        .where(
            col(RunRow.run_id).in_(
                select(SeatRow.run_id)
                .where(SeatRow.agent_id == agent_id)
                .where(col(SeatRow.scored).is_(True))
            )
        )
        .where(not_held(RunRow.run_id))
        .order_by(col(RunRow.created_at), col(RunRow.run_id))
    )
    return [
        ScoredRun(stored_run(r), Scorecard.model_validate_json(c.scorecard_json))
        for r, c in session.exec(query).all()
    ]


def submission_run_ids(session: Session, *, submission_id: str) -> list[str]:
    query = select(SubmissionRunRow.run_id).where(SubmissionRunRow.submission_id == submission_id)
    return sorted(session.exec(query).all())
