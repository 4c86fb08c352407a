"""Stability verdicts over repetitions of one agent, scenario, seed and adversary config."""

from __future__ import annotations

from typing import Annotated, NamedTuple

from fastapi import Depends, Query
from sqlmodel import Session

from judge.core.domain.limits import SEED_MAX, SEED_MIN
from judge.core.scoring.stability import DEFAULT_THRESHOLDS, StabilityThresholds
from judge.server.api.deps import AgentDep, OwnerDep, SessionDep, credentialed_router
from judge.server.api.errors import error_responses
from judge.server.api.models import StabilityPublic
from judge.server.auth import AgentIdentity
from judge.server.service.stability import stability

router = credentialed_router("stability", responses=error_responses(404, 422))

_DOC = (
    "Over the scored runs that share scenario, `seed` and `adversary_config` (omitted: runs "
    "without one): per trait the per-run trait means, per objective the met rate and the spread "
    "of partial credit; each with n, mean, sample variance (n - 1), best, worst, the values "
    "themselves and a verdict: `stable`, `input_sensitive` (variance above the threshold: identical "
    "inputs, different behaviour) or `insufficient_repetitions` (fewer than `min_repetitions` "
    "values). Reported, never averaged away; runs from several eras are flagged."
)

Seed = Annotated[
    int | None,
    Query(
        ge=SEED_MIN,
        le=SEED_MAX,
        description="the runs' seed (signed 32-bit); omitted: runs without a seed",
    ),
]
Adversary = Annotated[
    str | None, Query(description="the runs' adversary config; omitted: runs without one")
]
MinReps = Annotated[int, Query(ge=2, le=1000, description="fewest values a verdict needs")]
TraitMax = Annotated[
    float, Query(ge=0.0, description="largest sample variance of trait means read as stable")
]
ObjectiveMax = Annotated[
    float, Query(ge=0.0, description="largest sample variance of achieved fraction read as stable")
]


class Repetitions(NamedTuple):
    """Which repetitions are compared and the verdicts' limits (named as ``stability`` takes them)."""

    seed: int | None
    adversary_config: str | None
    thresholds: StabilityThresholds


async def repetitions(
    seed: Seed = None,
    adversary_config: Adversary = None,
    min_repetitions: MinReps = DEFAULT_THRESHOLDS.min_repetitions,
    trait_variance_max: TraitMax = DEFAULT_THRESHOLDS.trait_variance_max,
    objective_variance_max: ObjectiveMax = DEFAULT_THRESHOLDS.objective_variance_max,
) -> Repetitions:
    """The query parameters both stability routes share."""
    thresholds = StabilityThresholds(
        min_repetitions=min_repetitions,
        trait_variance_max=trait_variance_max,
        objective_variance_max=objective_variance_max,
    )
    return Repetitions(seed, adversary_config, thresholds)


RepetitionsDep = Annotated[Repetitions, Depends(repetitions)]


def verdicts(
    session: Session,
    *,
    agent_id: str,
    scenario_id: str,
    compared: Repetitions,
    agent: AgentIdentity | None,
) -> StabilityPublic:
    """The stability report of ``agent_id``, as the caller (``agent``: None for an owner) sees it."""
    report = stability(
        session, agent_id=agent_id, scenario_id=scenario_id, agent=agent, **compared._asdict()
    )
    return StabilityPublic.model_validate(report.model_dump())


@router.get(
    "/api/evals/stability/{scenario_id}",
    summary="Stability verdicts of an agent (owner)",
    description=_DOC,
)
def owner_stability(
    scenario_id: str,
    agent_id: Annotated[str, Query(description="the agent whose repetitions are compared")],
    owner: OwnerDep,
    session: SessionDep,
    compared: RepetitionsDep,
) -> StabilityPublic:
    return verdicts(
        session, agent_id=agent_id, scenario_id=scenario_id, compared=compared, agent=None
    )


@router.get(
    "/api/agent/stability/{scenario_id}",
    summary="Stability verdicts of the key's agent (agent key)",
    description=_DOC + " For the key's own agent only.",
)
def agent_stability(
    scenario_id: str, agent: AgentDep, session: SessionDep, compared: RepetitionsDep
) -> StabilityPublic:
    return verdicts(
        session,
        agent_id=agent.name,
        scenario_id=scenario_id,
        compared=compared,
        agent=agent.as_agent(),
    )
