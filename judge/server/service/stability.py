"""An agent's stability verdicts (rules: :mod:`judge.core.scoring.stability`), and who may read what."""

from __future__ import annotations

from sqlmodel import Session

from judge.core.errors import NotFoundError
from judge.core.scoring.stability import (
    Repetition,
    StabilityReport,
    StabilityThresholds,
    repetition_from,
    stability_report,
)
from judge.server.auth import AgentIdentity
from judge.server.store import queries_results as results_repo
from judge.server.store.queries_results import ScoredRun


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
    agent, only the runs where it sat in the key's seat, and never a safety trait."""
    found = results_repo.repetitions(
        session,
        agent_id=agent_id,
        scenario_id=scenario_id,
        seed=seed,
        adversary_config=adversary_config,
    )
    reps = _repetitions(found, agent_id=agent_id, agent=agent)
    if not reps:
        raise NotFoundError(
            f"no scored runs of agent {agent_id!r} on scenario {scenario_id!r} with seed {seed} "
            f"and adversary_config {adversary_config!r}"
        )
    return stability_report(reps, thresholds)


def _repetitions(
    found: list[ScoredRun], *, agent_id: str, agent: AgentIdentity | None
) -> list[Repetition]:
    """The agent's seats in the runs found; for an agent key, only its own agent and seat."""
    if agent is not None and agent.agent_id != agent_id:
        return []
    return [
        repetition_from(
            r.run, seat, era_id=r.card.measurement_era.era_id, with_safety=agent is None
        )
        for r in found
        for seat in r.card.seats.values()
        if seat.agent_id == agent_id and (agent is None or seat.seat == agent.seat)
    ]
