"""Reads that compare runs: a scenario's leaderboards and an agent's stability verdicts.

The rules live in :mod:`judge.scoring.leaderboard` and :mod:`judge.scoring.stability`;
this module only gathers their inputs from the store and decides who may read what.
"""

from __future__ import annotations

from sqlmodel import Session

from judge.auth import AgentIdentity
from judge.errors import NotFoundError
from judge.scoring.leaderboard import Leaderboard, build_leaderboard, submission_entries
from judge.scoring.stability import (
    StabilityReport,
    StabilityThresholds,
    repetition_from,
    stability_report,
)
from judge.store import queries_results as results_repo


def leaderboard(session: Session, *, scenario_id: str, era_id: str | None) -> Leaderboard:
    """The scenario's boards from its finalized submissions (one era, or every era flagged)."""
    rows = results_repo.finalized_submission_cards(session, scenario_id=scenario_id, era_id=era_id)
    entries = [
        entry
        for r in rows
        for entry in submission_entries(
            r.card, agent_id=r.agent_id, visibility=r.visibility,
            leaderboard_class="ranked" if r.leaderboard_class == "ranked" else "self_hosted_facilitator",
        )
    ]
    return build_leaderboard(entries, scenario_id=scenario_id, era_id=era_id)


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
    """Stability of one agent over its scored repetitions; an agent key reads only its own.

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
        repetition_from(r.run, seat, era_id=r.card.measurement_era.era_id)
        for r in found
        for seat in r.card.seats.values()
        if seat.agent_id == agent_id
    ]
    return stability_report(reps, thresholds)
