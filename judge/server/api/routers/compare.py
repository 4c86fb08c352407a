"""Matched comparison of two agents' scored runs (owner)."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import Query

from judge.core.domain.comparison import Measure
from judge.engine.judging.panel import single_judge
from judge.server.api.deps import EngineDep, SessionDep, SettingsDep, WorkersDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.models import ComparisonPublic, PairwiseComparisonPublic
from judge.server.request_scope import in_scan_thread
from judge.server.service import pairwise
from judge.server.service.matched import compare_agents
from judge.server.service.pairwise import PairwiseComparisonCreate

router = owner_router("comparisons", responses=error_responses(422))

_STORED_PAIRWISE_DOC = """\
The pairwise comparison from the verdicts kept in the current pairwise era, with no judge
call: every pair's two orders, the position bias, the ratings. 404 when nothing was judged yet
(POST `/api/evals/comparisons` with `mode: pairwise`)."""


@router.get("/api/evals/comparisons", summary="Compare two agents over matched runs (owner)")
def compare(
    session: SessionDep,
    agent_a: Annotated[str, Query(min_length=1, description="the first agent")],
    agent_b: Annotated[str, Query(min_length=1, description="the second agent")],
    scenario_id: Annotated[str | None, Query(description="only this scenario's runs")] = None,
    measure: Annotated[Measure, Query(description="what is compared per pair")] = "reward",
) -> ComparisonPublic:
    """Pairs the two agents' scored runs that share scenario, seed and adversary config, reports
    each pair's outcome difference (state-check reward, or the fraction of checks passed), a paired
    test of whether one agent is better (Wilcoxon signed-rank, with an exact sign test beside it),
    and every run that found no partner. Only runs scored with state checks take part."""
    result = compare_agents(
        session, agent_a=agent_a, agent_b=agent_b, scenario_id=scenario_id, measure=measure
    )
    return ComparisonPublic.model_validate(result.model_dump())


@router.post(
    "/api/evals/comparisons",
    summary="Judge two agents pair by pair, in both orders (owner)",
    description=(
        "`mode: pairwise`: every matched pair of the two agents' scored runs (same scenario, seed "
        "and adversary config) is judged on one trait by the configured judge, with each seat "
        "shown first in turn, at least five passes per order; a pair whose orders disagree is a "
        "tie. Answers each pair's two orders (votes, every pass with its winner, rationale and "
        "both seats' cited turns), the judge's flip rate and first-position rate with Wilson "
        "intervals, and Bradley-Terry ratings with bootstrap intervals. Verdicts are kept per "
        "pair, trait and pairwise era: asking again judges only new pairs (`n_judged`). At most "
        f"{pairwise.MAX_NEW_PAIRS} new pairs per request (narrow with `scenario_id`). "
        "Pairwise calls are counted on `/metrics` like any judge call (docs/scoring.md), and "
        "budgeted like a run: when the estimate would pass a limit nothing is judged and the "
        "answer is code `budget_exceeded`: 429 with Retry-After (seconds to the next UTC day) "
        "for a daily limit, 422 for the per-request `run_*` limit; `stopped_by_budget` when a "
        'limit was reached after some pairs (docs/service.md, "Cost and budgets").'
    ),
    responses={
        409: {"description": "A run of the comparison is held as unscannable (docs/integrity.md)."},
        422: {"description": "The estimate would pass the per-request budget; nothing was judged."},
        429: {
            "description": "The estimate would pass a daily judging budget; nothing was judged "
            "(code `budget_exceeded`, Retry-After: seconds to the next UTC day).",
            "headers": {"Retry-After": {"schema": {"type": "integer"}}},
        },
        502: {"description": "The judge could not be reached after retries."},
    },
)
async def compare_pairwise(
    body: PairwiseComparisonCreate, engine: EngineDep, settings: SettingsDep, workers: WorkersDep
) -> PairwiseComparisonPublic:
    # the store is read and written on worker threads in short transactions; no connection
    # is held while the judge answers; the runs are screened (CPU-bound) under SCANS
    prepared = await in_scan_thread(partial(pairwise.prepare, engine, body=body, settings=settings))
    backend = single_judge(workers.backends(settings.judge))
    judged = await pairwise.judge_new(prepared, backend=backend, settings=settings, engine=engine)
    result = pairwise.result(prepared, judged)
    return PairwiseComparisonPublic.model_validate(result, from_attributes=True)


@router.get(
    "/api/evals/comparisons/pairwise",
    summary="Stored pairwise verdicts of two agents on a trait (owner)",
    description=_STORED_PAIRWISE_DOC,
    responses=error_responses(404),
)
def stored_pairwise(
    session: SessionDep,
    settings: SettingsDep,
    agent_a: Annotated[str, Query(min_length=1, max_length=200)],
    agent_b: Annotated[str, Query(min_length=1, max_length=200)],
    trait: Annotated[str, Query(min_length=1, max_length=200)],
    scenario_id: Annotated[str | None, Query(max_length=200)] = None,
) -> PairwiseComparisonPublic:
    found = pairwise.stored_comparison(
        session,
        agent_a=agent_a,
        agent_b=agent_b,
        trait=trait,
        scenario_id=scenario_id,
        settings=settings,
    )
    return PairwiseComparisonPublic.model_validate(found, from_attributes=True)
