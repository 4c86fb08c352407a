"""Stability verdicts over repetitions (docs/scoring.md, "Repetitions and stability"); an
objective's variance is over the fraction achieved, not its credit, so one threshold fits any
weight."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import Field

from judge.core.domain.judging import VARIANCE_KIND
from judge.core.domain.outputs import Value
from judge.core.domain.run import Run, WinCondition
from judge.core.domain.scorecard import SeatScorecard
from judge.core.errors import InputError
from judge.core.scoring.identity import run_identity
from judge.core.scoring.objectives import condition_credit, conditions_for_seat
from judge.core.scoring.passes import sample_variance

StabilityVerdict = Literal["stable", "input_sensitive", "insufficient_repetitions"]


class StabilityThresholds(Value):
    """When a spread counts as input-sensitive, and how many repetitions a verdict needs."""

    min_repetitions: int = Field(default=3, ge=2, le=1000)
    trait_variance_max: float = Field(
        default=0.01, ge=0.0, description="sample variance of trait means"
    )
    objective_variance_max: float = Field(
        default=0.05, ge=0.0, description="sample variance of the per-repetition achieved fraction"
    )


DEFAULT_THRESHOLDS = StabilityThresholds()


class Repetition(Value):
    """One repetition as stability sees it: the agent's seat in one run."""

    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None
    agent_id: str
    era_id: str
    trait_means: dict[str, float | None]
    conditions: list[WinCondition]


class RunSpread(Value):
    n: int
    values: list[float]
    mean: float | None
    variance: float | None
    variance_kind: str = VARIANCE_KIND
    best: float | None
    worst: float | None


class TraitStability(Value):
    trait: str
    spread: RunSpread
    n_unscored: int = Field(description="repetitions whose trait mean was withheld or missing")
    verdict: StabilityVerdict


class ObjectiveStability(Value):
    condition_id: str
    weight: float
    n: int
    met_count: int
    met_rate: float
    achieved: RunSpread = Field(
        description="per repetition: 1 if met, else progress (the verdict's basis)"
    )
    partial_credit: RunSpread = Field(description="per repetition: weighted credit, 0..weight")
    verdict: StabilityVerdict


class StabilityReport(Value):
    scenario_id: str
    seed: int | None
    adversary_config: str | None
    agent_id: str
    run_ids: list[str]
    n_repetitions: int
    eras: list[str]
    mixed_eras: bool
    thresholds: StabilityThresholds
    traits: dict[str, TraitStability]
    objectives: dict[str, ObjectiveStability]
    input_sensitive: list[str] = Field(
        description="'trait:<name>' / 'objective:<id>' judged input-sensitive"
    )


def repetition_from(
    run: Run, seat: SeatScorecard, *, era_id: str, with_safety: bool = True
) -> Repetition:
    """The agent's seat of a scored run, with the seat's own win conditions. The safety
    traits are left out when ``with_safety`` is false (what an agent key may read)."""
    traits = {**seat.traits, **(seat.safety_block or {})} if with_safety else dict(seat.traits)
    return Repetition(
        **run_identity(run),
        agent_id=seat.agent_id,
        era_id=era_id,
        trait_means={name: t.mean for name, t in sorted(traits.items())},
        conditions=conditions_for_seat(run.win_conditions, seat.seat),
    )


def run_spread(values: Sequence[float]) -> RunSpread:
    """How one agent's values spread across matched runs (repetitions of one condition)."""
    return RunSpread(
        n=len(values),
        values=list(values),
        mean=sum(values) / len(values) if values else None,
        variance=sample_variance(values),
        best=max(values, default=None),
        worst=min(values, default=None),
    )


def verdict(s: RunSpread, variance_max: float, min_repetitions: int) -> StabilityVerdict:
    if s.n < min_repetitions or s.variance is None:
        return "insufficient_repetitions"
    return "input_sensitive" if s.variance > variance_max else "stable"


def trait_stability(
    trait: str, reps: Sequence[Repetition], thresholds: StabilityThresholds
) -> TraitStability:
    means = [r.trait_means.get(trait) for r in reps]
    s = run_spread([m for m in means if m is not None])
    return TraitStability(
        trait=trait,
        spread=s,
        n_unscored=len(means) - s.n,
        verdict=verdict(s, thresholds.trait_variance_max, thresholds.min_repetitions),
    )


def achieved_fraction(condition: WinCondition) -> float:
    """1 if met, else the reported progress (0 when none was reported)."""
    return 1.0 if condition.met else (condition.progress or 0.0)


def objective_stability(
    conditions: Sequence[WinCondition], thresholds: StabilityThresholds
) -> ObjectiveStability:
    """One condition across the repetitions that reported it."""
    achieved = run_spread([achieved_fraction(c) for c in conditions])
    met = sum(1 for c in conditions if c.met)
    return ObjectiveStability(
        condition_id=conditions[0].id,
        weight=conditions[0].weight,
        n=len(conditions),
        met_count=met,
        met_rate=met / len(conditions),
        achieved=achieved,
        partial_credit=run_spread([condition_credit(c) for c in conditions]),
        verdict=verdict(achieved, thresholds.objective_variance_max, thresholds.min_repetitions),
    )


def check_same_inputs(reps: Sequence[Repetition]) -> None:
    """Refuse (``InputError``) no repetitions, or ones that differ in scenario, seed,
    adversary config or agent."""
    if not reps:
        raise InputError(
            "no repetitions: stability needs runs of one agent on one scenario, seed and adversary"
        )
    for field in ("scenario_id", "seed", "adversary_config", "agent_id"):
        values = sorted({str(getattr(r, field)) for r in reps})
        if len(values) > 1:
            raise InputError(f"runs differ in {field} ({values}); repetitions must share it")


def _conditions_by_id(reps: Sequence[Repetition]) -> Mapping[str, list[WinCondition]]:
    out: dict[str, list[WinCondition]] = {}
    for rep in reps:
        for c in rep.conditions:
            out.setdefault(c.id, []).append(c)
    return dict(sorted(out.items()))


def stability_report(
    reps: Sequence[Repetition], thresholds: StabilityThresholds = DEFAULT_THRESHOLDS
) -> StabilityReport:
    """Per-trait and per-objective spreads and verdicts across repetitions."""
    check_same_inputs(reps)
    names = sorted({t for r in reps for t in r.trait_means})
    traits = {t: trait_stability(t, reps, thresholds) for t in names}
    objectives = {
        cid: objective_stability(cs, thresholds) for cid, cs in _conditions_by_id(reps).items()
    }
    eras = sorted({r.era_id for r in reps})
    first = reps[0]
    return StabilityReport(
        scenario_id=first.scenario_id,
        seed=first.seed,
        adversary_config=first.adversary_config,
        agent_id=first.agent_id,
        run_ids=[r.run_id for r in reps],
        n_repetitions=len(reps),
        eras=eras,
        mixed_eras=len(eras) > 1,
        thresholds=thresholds,
        traits=traits,
        objectives=objectives,
        input_sensitive=[f"trait:{t}" for t, v in traits.items() if v.verdict == "input_sensitive"]
        + [f"objective:{o}" for o, v in objectives.items() if v.verdict == "input_sensitive"],
    )
