"""Matched comparison of two agents' scored runs (owner)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from judge.api.deps import OwnerDep, SessionDep
from judge.api.errors import error_responses
from judge.domain.comparison import AgentComparison, Measure
from judge.service.matched import compare_agents

router = APIRouter(tags=["comparisons"])


class ComparisonPublic(AgentComparison):
    """Per-pair outcome differences, the paired test, and the runs that could not be paired."""


@router.get(
    "/api/evals/comparisons",
    summary="Compare two agents over matched runs (owner)",
    description=(
        "Pairs the two agents' scored runs that share scenario, seed and adversary config, "
        "reports each pair's outcome difference (state-check reward, or the fraction of checks "
        "passed), a paired test of whether one agent is better (Wilcoxon signed-rank, with an "
        "exact sign test beside it), and every run that found no partner. Only runs scored with "
        "state checks take part."
    ),
    responses=error_responses(401, 422),
)
def compare(
    owner: OwnerDep,
    session: SessionDep,
    agent_a: Annotated[str, Query(min_length=1, description="the first agent")],
    agent_b: Annotated[str, Query(min_length=1, description="the second agent")],
    scenario_id: Annotated[str | None, Query(description="only this scenario's runs")] = None,
    measure: Annotated[Measure, Query(description="what is compared per pair")] = "reward",
) -> ComparisonPublic:
    result = compare_agents(
        session, agent_a=agent_a, agent_b=agent_b, scenario_id=scenario_id, measure=measure
    )
    return ComparisonPublic.model_validate(result.model_dump())
