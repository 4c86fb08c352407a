"""Reads that compare runs: a scenario's leaderboards and an agent's stability verdicts.

The rules live in :mod:`judge.scoring.leaderboard` and :mod:`judge.scoring.stability`;
this module only gathers their inputs from the store and decides who may read what.
"""

from __future__ import annotations

from sqlmodel import Session

from judge.auth import AgentIdentity
from judge.domain.status import stored_class
from judge.errors import NotFoundError
from judge.scoring.leaderboard import (
    Leaderboard,
    LeaderboardRow,
    build_leaderboard,
    submission_entries,
)
from judge.scoring.stability import (
    StabilityReport,
    StabilityThresholds,
    repetition_from,
    stability_report,
)
from judge.store import queries_results as results_repo


def leaderboard(session: Session, *, scenario_id: str, era_id: str | None, viewer: str | None = None) -> Leaderboard:
    """The scenario's boards from its finalized submissions (one era, or every era flagged).

    ``viewer`` is the agent of an agent key: rows stay public (agent, era, aggregates) but
    the run ids of other agents' rows are left out.
    """
    rows = results_repo.finalized_submission_cards(session, scenario_id=scenario_id, era_id=era_id)
    entries = [
        entry
        for r in rows
        for entry in submission_entries(
            r.card, agent_id=r.agent_id, visibility=r.visibility,
            leaderboard_class=stored_class(r.leaderboard_class),
        )
    ]
    board = build_leaderboard(entries, scenario_id=scenario_id, era_id=era_id)
    return board if viewer is None else without_others_runs(board, viewer)


def without_others_runs(board: Leaderboard, viewer: str) -> Leaderboard:
    def redact(rows: list[LeaderboardRow]) -> list[LeaderboardRow]:
        return [r if r.agent_id == viewer else r.model_copy(update={"run_ids": []}) for r in rows]

    return board.model_copy(update={
        "ranked": redact(board.ranked), "self_hosted_facilitator": redact(board.self_hosted_facilitator),
        "self_reported": redact(board.self_reported),
    })


def stability(
    session: Session,
    *,
    agent_id: str,
    scenario_id: str,
    seed: int | None,
    adversary_config: str | None,
    thresholds: StabilityThresholds,
    agent: AgentIdentity | None,
) -> StabilityReport:
    """Stability of one agent over its scored repetitions. An agent key reads only its own
    agent, only the runs where it sat in the key's seat, and never a safety trait.

    Raises:
        NotFoundError: no scored run matches (or the key is for another agent).
    """
    found = results_repo.repetitions(
        session, agent_id=agent_id, scenario_id=scenario_id, seed=seed, adversary_config=adversary_config
    )
    if (agent is not None and agent.agent_id != agent_id) or not found:
        raise NotFoundError(
            f"no scored runs of agent {agent_id!r} on scenario {scenario_id!r} with seed {seed} "
            f"and adversary_config {adversary_config!r}"
        )
    reps = [
        repetition_from(r.run, seat, era_id=r.card.measurement_era.era_id, with_safety=agent is None)
        for r in found
        for seat in r.card.seats.values()
        if seat.agent_id == agent_id and (agent is None or seat.seat == agent.seat)
    ]
    if not reps:
        raise NotFoundError(
            f"no scored runs of agent {agent_id!r} on scenario {scenario_id!r} with seed {seed} "
            f"and adversary_config {adversary_config!r}"
        )
    return stability_report(reps, thresholds)
