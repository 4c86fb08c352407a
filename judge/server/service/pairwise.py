"""Pairwise comparisons of two agents' scored runs, owner-only (docs/scoring.md, "Pairwise
judging"); no connection is held across a judge call, each verdict stored as it finishes."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.cost import CostEstimate
from judge.core.domain.pairwise import (
    PairToJudge,
    PairVerdict,
    PairwiseComparison,
    PositionBias,
    UnpairedSide,
)
from judge.core.domain.rubric import Rubric
from judge.core.domain.run import Run
from judge.core.errors import BudgetExceeded, InputError, NotFoundError
from judge.core.integrity import scenario_roles
from judge.core.scoring.pairwise import position_biases
from judge.core.scoring.pairwise_board import (
    PairwiseLeaderboard,
    pairwise_comparison,
    pairwise_era,
    pairwise_leaderboard,
)
from judge.engine.checks.scenario import find_scenario
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.pairwise import PAIRWISE_PROMPT_VERSION, pairwise_decoders
from judge.engine.judging.registry import JudgeSpec
from judge.engine.judging.runner import RunnerConfig
from judge.engine.packs import RubricSet
from judge.engine.pipeline import PairsToJudge, estimate_pairs, judge_pair, pairs_to_judge
from judge.engine.settings import Settings
from judge.engine.telemetry.prometheus import observe_pairwise_pass
from judge.server.service.budgets import PAIR_SEAT
from judge.server.service.budgets import guard as budget_guard
from judge.server.service.platform import measurement_settings, rubric_set
from judge.server.store import leaderboard_entries as entry_repo
from judge.server.store import pairwise as pairwise_repo
from judge.server.store import queries_compare
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction

#: The most pairs one request may send to the judge; more must be narrowed by scenario.
MAX_NEW_PAIRS = 50
_ID = Field(min_length=1, max_length=200)


class PairwiseComparisonCreate(BaseModel):
    """``POST /api/evals/comparisons`` with ``mode: pairwise``."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["pairwise"] = Field(description="pairwise: the judge compares seats")
    agent_a: str = _ID
    agent_b: str = _ID
    trait: str = _ID
    scenario_id: str | None = Field(default=None, min_length=1, max_length=200)


class PairwiseComparisonResult(PairwiseComparison):
    """Every matched pair's verdict (both orders, every pass), the judge's position bias and
    the two agents' ratings; ``n_judged`` pairs were judged by this request, the rest came
    from the store."""

    n_judged: int
    stopped_by_budget: str | None = Field(
        default=None,
        description="the budget limit the request reached: the pairs after it were not judged "
        '(docs/service.md, "Cost and budgets")',
    )


class JudgedPairs(NamedTuple):
    """The verdicts a request judged, their estimate, and the budget limit that stopped it, if any."""

    verdicts: list[PairVerdict]
    estimate: CostEstimate
    stopped: str | None = None
    #: the limit that stopped it is one of a UTC day (it may pass again tomorrow)
    stopped_daily: bool = False


class Prepared(NamedTuple):
    body: PairwiseComparisonCreate
    rubric: Rubric
    settings: MeasurementSettings
    era_id: str
    kept: list[PairVerdict]
    todo: list[PairToJudge]
    unpaired: list[UnpairedSide]


def _runs_of(
    session: Session, *, agent_id: str, scenario_id: str | None, by_agents: set[str]
) -> list[Run]:
    """The agent's scored runs; ``by_agents`` receives the ids of those an agent submitted
    itself (screened as all the agent's text, docs/integrity.md)."""
    ids = queries_compare.scored_run_ids_of(session, agent_id=agent_id, scenario_id=scenario_id)
    rows = [r for r in (run_repo.get_run(session, run_id=i) for i in ids) if r is not None]
    by_agents.update(r.run_id for r in rows if run_repo.is_self_reported(r.submitted_by))
    return [run_repo.stored_run(r) for r in rows]


def _rubric(rubrics: RubricSet, trait: str) -> Rubric:
    if trait not in rubrics.rubrics:
        raise InputError(f"trait: unknown trait {trait!r} (known: {sorted(rubrics.rubrics)})")
    return rubrics.rubrics[trait]


def _seat_of(run: Run, agent_id: str) -> str:
    return next(s.seat for s in run.seats if s.scored and s.agent_id == agent_id)


def _pairs(
    a: list[Run],
    b: list[Run],
    body: PairwiseComparisonCreate,
    settings: MeasurementSettings,
    scan_cpu_s: float,
    by_agents: set[str],
    scenarios_dir: Path | None,
) -> PairsToJudge:
    seat_a, seat_b = (partial(_seat_of, agent_id=x) for x in (body.agent_a, body.agent_b))
    return pairs_to_judge(
        a,
        b,
        settings,
        seat_a=seat_a,
        seat_b=seat_b,
        scan_cpu_s=scan_cpu_s,
        agent_submitted=by_agents,
        roles=_roles(a + b, scenarios_dir),
    )


def _roles(runs: list[Run], folder: Path | None) -> dict[str, list[str]]:
    """The seat names each scenario of ``runs`` defines, when the service has its file: the
    pairwise prompt names seats by them, as the judge prompt does (docs/integrity.md)."""
    if folder is None:
        return {}
    ids = dict.fromkeys(r.scenario_id for r in runs)
    return {i: scenario_roles(find_scenario(i, folder)) for i in ids}


def _era(judge: JudgeSpec, rubric: Rubric, settings: MeasurementSettings) -> str:
    return pairwise_era(
        judge_model=judge.model,
        rubric_hash=rubric.content_hash,
        prompt_version=PAIRWISE_PROMPT_VERSION,
        settings=settings,
        decoders=pairwise_decoders(judge.decoders),
    )


def _kept(session: Session, era_id: str, trait: str, pair: PairToJudge) -> PairVerdict | None:
    a, b = pair.side_a, pair.side_b
    return pairwise_repo.get_verdict(
        session, era_id=era_id, trait=trait, run_a=a.run_id, seat_a=a.seat, run_b=b.run_id,
        seat_b=b.seat,
    )  # fmt: skip


def prepare(engine: Engine, *, body: PairwiseComparisonCreate, settings: Settings) -> Prepared:
    """The pairs to compare, and those already judged in this era, read in one transaction;
    every run is screened, each within ``JUDGE_SCAN_CPU_S`` (CPU-bound: call it off the event
    loop, as the API does); ScanBudgetExceeded names a run held as unscannable."""
    if body.agent_a == body.agent_b:
        raise InputError("agent_a and agent_b must be two different agents")
    with transaction(engine) as session:
        rubric = _rubric(rubric_set(session, settings=settings), body.trait)
        measure = measurement_settings(session, settings=settings)
        by_agents: set[str] = set()
        a, b = (
            _runs_of(session, agent_id=x, scenario_id=body.scenario_id, by_agents=by_agents)
            for x in (body.agent_a, body.agent_b)
        )
        pairs, unpaired = _pairs(
            a, b, body, measure, settings.scan_cpu_s, by_agents, settings.scenarios_dir
        )
        era = _era(settings.judge, rubric, measure)
        found = [(p, _kept(session, era, body.trait, p)) for p in pairs]
    if not pairs:
        raise InputError(
            "no scored run of agent_a matches one of agent_b by scenario, seed and adversary config"
        )
    todo = [p for p, kept in found if kept is None]
    if len(todo) > MAX_NEW_PAIRS:
        raise InputError(
            f"{len(todo)} pairs to judge, more than {MAX_NEW_PAIRS} in one request: "
            "narrow the request with scenario_id"
        )
    kept = [k for _, k in found if k is not None]
    return Prepared(body, rubric, measure, era, kept, todo, unpaired)


async def judge_new(
    prepared: Prepared, *, backend: JudgeBackend, settings: Settings, engine: Engine
) -> JudgedPairs:
    """Judge the pairs not yet kept, storing each verdict as it finishes, under a run's budget."""
    runner = RunnerConfig.from_settings(settings)
    estimate = estimate_pairs(
        [(p.side_a, p.side_b) for p in prepared.todo],
        prepared.rubric,
        judge_model=backend.model,
        settings=prepared.settings,
        runner=runner,
        seat=PAIR_SEAT,
    )
    agents = {prepared.body.agent_a: [PAIR_SEAT], prepared.body.agent_b: [PAIR_SEAT]}
    guard = budget_guard(engine, settings=settings, seats_of_agent=agents, estimate=estimate)
    verdicts: list[PairVerdict] = []
    for pair in prepared.todo:
        if guard is not None and (crossed := guard.crossing()) is not None:
            return JudgedPairs(verdicts, estimate, crossed.text, crossed.daily)
        verdict = await judge_pair(
            *pair, prepared.rubric, backend, settings=prepared.settings, runner=runner
        )
        with transaction(engine) as session:
            pairwise_repo.put_verdict(session, verdict=verdict)
        for judged in verdict.passes:
            observe_pairwise_pass(judged)
            if guard is not None:
                guard.record(PAIR_SEAT, judged)
        verdicts.append(verdict)
    return JudgedPairs(verdicts, estimate)


def result(prepared: Prepared, judged: JudgedPairs) -> PairwiseComparisonResult:
    """The comparison over every pair, kept and new: every pair's cost, this request's estimate."""
    everything = [*prepared.kept, *(v.without_transcripts() for v in judged.verdicts)]
    if not everything:
        raise BudgetExceeded(judged.stopped or "no pair was judged", daily=judged.stopped_daily)
    verdicts = sorted(everything, key=lambda v: (v.key.scenario_id, v.key.seed or 0))
    comparison = pairwise_comparison(
        verdicts,
        label_a=prepared.body.agent_a,
        label_b=prepared.body.agent_b,
        trait=prepared.body.trait,
        judge_model=verdicts[0].judge_model,
        era_id=prepared.era_id,
        passes_per_order=prepared.settings.denoise.passes,
        unpaired=prepared.unpaired,
    )
    cost = comparison.cost.model_copy(update={"estimate": judged.estimate})
    return PairwiseComparisonResult(
        **comparison.model_dump(exclude={"cost"}),
        cost=cost,
        n_judged=len(judged.verdicts),
        stopped_by_budget=judged.stopped,
    )


def stored_comparison(
    session: Session,
    *,
    agent_a: str,
    agent_b: str,
    trait: str,
    scenario_id: str | None,
    settings: Settings,
) -> PairwiseComparisonResult:
    """The comparison from the verdicts kept in the current pairwise era (no judge call)."""
    measure = measurement_settings(session, settings=settings)
    era = _era(settings.judge, _rubric(rubric_set(session, settings=settings), trait), measure)
    kept = pairwise_repo.verdicts_of(
        session, scenario_id=scenario_id, trait=trait, era_id=era, agents=[agent_a, agent_b]
    )
    verdicts = [v for v in kept if (v.side_a.agent_id, v.side_b.agent_id) == (agent_a, agent_b)]
    if not verdicts:
        raise NotFoundError(
            f"no pairwise verdict of {agent_a} against {agent_b} on {trait} in the current "
            "pairwise era: POST /api/evals/comparisons with mode pairwise first"
        )
    comparison = pairwise_comparison(
        verdicts,
        label_a=agent_a,
        label_b=agent_b,
        trait=trait,
        judge_model=verdicts[0].judge_model,
        era_id=era,
        passes_per_order=measure.denoise.passes,
    )
    return PairwiseComparisonResult(**comparison.model_dump(), n_judged=0)


def pairwise_board(
    session: Session,
    *,
    scenario_id: str,
    trait: str,
    era_id: str | None,
    settings: Settings,
    agent_view: bool = False,
) -> PairwiseLeaderboard:
    """The scenario's pairwise board on one trait, classed and gated by its score board."""
    rubrics = rubric_set(session, settings=settings)
    if agent_view:
        # a safety trait and an unknown one read the same to an agent, and only capability
        # traits are named
        capability = sorted(rubrics.traits_of("capability"))
        if trait not in capability:
            raise NotFoundError(f"no pairwise board on this trait (boards: {capability})")
    else:
        _rubric(rubrics, trait)
    entries = entry_repo.finalized_entries(session, scenario_id=scenario_id)
    verdicts = pairwise_repo.verdicts_of(
        session, scenario_id=scenario_id, trait=trait, era_id=era_id
    )
    return pairwise_leaderboard(
        verdicts, entries, scenario_id=scenario_id, trait=trait, era_id=era_id
    )


def stored_position_biases(session: Session) -> list[PositionBias]:
    """Each judge model's position bias per trait, over every verdict kept (the console's)."""
    return position_biases(pairwise_repo.verdicts_of(session))
