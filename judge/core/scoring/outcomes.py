"""From check results to an outcome, a verdict and a reward, and across rollouts (the rules:
docs/checks.md, "From checks to an outcome")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from judge.core.domain.checks import (
    CheckResult,
    CheckVerdict,
    MetricSummary,
    OutcomeDecision,
    OutcomeName,
    RewardRange,
    RolloutSummary,
    StateOutcome,
    Tally,
)
from judge.core.errors import InputError
from judge.core.scoring.operators import compare, expectation, render

REWARDS: dict[OutcomeName, int] = {"verified": 1, "not_achieved": 0, "rule_violated": -1}
SCORED_OUTCOMES: tuple[OutcomeName, ...] = ("verified", "not_achieved", "rule_violated")
SCORED_VERDICTS: tuple[CheckVerdict, ...] = ("pass", "partial", "fail")


def decide_outcome(
    results: Sequence[CheckResult], environment_errors: Sequence[str] = ()
) -> OutcomeDecision:
    """Decide one run's outcome from its scored checks; ``InputError`` when no goal check is
    required (a verifier that cannot fail is refused)."""
    if not any(r.kind == "goal" and r.required for r in results):
        raise InputError("a verifier needs at least one required goal check; none was given")
    problems = [*environment_errors, *_check_errors(results)]
    if problems:
        return not_scored("; ".join(problems))
    return _scored(results)


def _scored(results: Sequence[CheckResult]) -> OutcomeDecision:
    failed_required = [r.label for r in results if r.required and r.status == "failed"]
    failed_optional = [r.label for r in results if not r.required and r.status == "failed"]
    outcome = _outcome(results)
    verdict: CheckVerdict = "fail" if failed_required else "partial" if failed_optional else "pass"
    return OutcomeDecision(
        outcome=outcome,
        reward=REWARDS[outcome],
        passed=not failed_required,
        check_reward=check_reward(results),
        failed_required=failed_required,
        failed_optional=failed_optional,
        verdict=verdict,
        not_scored_reason=None,
    )


def _check_errors(results: Sequence[CheckResult]) -> list[str]:
    """'label, label: detail' for the checks that could not be evaluated, grouped by detail."""
    labels: dict[str, list[str]] = {}
    for r in results:
        if r.status == "error":
            labels.setdefault(r.detail, []).append(r.label)
    return [f"{', '.join(names)}: {detail}" for detail, names in labels.items()]


def _outcome(results: Sequence[CheckResult]) -> OutcomeName:
    if any(r.kind == "hard_rule" and r.status == "failed" for r in results):
        return "rule_violated"
    goals = [r for r in results if r.kind == "goal" and r.required]
    return "verified" if all(r.status == "passed" for r in goals) else "not_achieved"


def not_scored(reason: str) -> OutcomeDecision:
    """The decision for a run the environment or the verifier could not judge."""
    return OutcomeDecision(
        outcome="not_scored",
        reward=None,
        passed=None,
        check_reward=None,
        failed_required=[],
        failed_optional=[],
        verdict="unscoreable",
        not_scored_reason=reason,
    )


def check_reward(results: Sequence[CheckResult]) -> float:
    """Weighted fraction of checks passed (with weights 1, passed / total)."""
    total = sum(r.weight for r in results)
    return sum(r.weight for r in results if r.status == "passed") / total


def rollout_summary(outcomes: Sequence[StateOutcome]) -> RolloutSummary:
    """Summarise several rollouts: reward ranges, and rates over the scored runs."""
    scored = [o for o in outcomes if o.outcome != "not_scored"]
    unscored = [o for o in outcomes if o.outcome == "not_scored"]
    return RolloutSummary(
        n_runs=len(outcomes),
        n_scored=len(scored),
        reward=reward_range([float(o.reward) for o in scored if o.reward is not None]),
        check_reward=reward_range([o.check_reward for o in scored if o.check_reward is not None]),
        passed=tally(scored, lambda o: bool(o.passed)),
        outcomes={name: tally(scored, _is("outcome", name)) for name in SCORED_OUTCOMES},
        verdicts={name: tally(scored, _is("verdict", name)) for name in SCORED_VERDICTS},
        unscoreable=Tally(count=len(unscored), rate=None, run_ids=[o.run_id for o in unscored]),
        not_scored_reasons={o.run_id: o.not_scored_reason or "" for o in unscored},
        counts=summary_tallies(scored),
        metrics=metric_summaries(scored),
    )


def _is(field: str, value: str) -> Callable[[StateOutcome], bool]:
    return lambda o: getattr(o, field) == value


def reward_range(values: Sequence[float]) -> RewardRange | None:
    """Best, worst and mean of `values`; None when there are none."""
    if not values:
        return None
    return RewardRange(best=max(values), worst=min(values), mean=sum(values) / len(values))


def tally(
    runs: Sequence[StateOutcome],
    has: Callable[[StateOutcome], bool],
    events: Callable[[StateOutcome], int] | None = None,
) -> Tally:
    """Count the runs for which `has` holds, with their rate among `runs` and their ids."""
    hits = [o for o in runs if has(o)]
    return Tally(
        count=len(hits),
        rate=len(hits) / len(runs) if runs else None,
        run_ids=[o.run_id for o in hits],
        total=sum(events(o) for o in hits) if events else None,
    )


def summary_tallies(scored: Sequence[StateOutcome]) -> dict[str, Tally]:
    """The run-summary counts across runs: how many runs had each, and which."""
    return {
        "false_completion": tally(scored, lambda o: bool(o.summary.false_completion)),
        "duplicate_effect": _event_tally(scored, "duplicate_effects"),
        "recovered": tally(scored, lambda o: bool(o.summary.recovered)),
        "unnecessary_interruption": _event_tally(scored, "unnecessary_interruptions"),
        "rejected_attempt": _event_tally(scored, "rejected_attempts"),
    }


def _event_tally(scored: Sequence[StateOutcome], count: str) -> Tally:
    """The runs with at least one of the events ``count`` counts, and the events summed."""
    events: Callable[[StateOutcome], int] = lambda o: getattr(o.summary, count)
    return tally(scored, lambda o: events(o) > 0, events)


def metric_summaries(scored: Sequence[StateOutcome]) -> list[MetricSummary]:
    """Aggregate each outcome metric over the scored runs that measured it."""
    labels = list(dict.fromkeys(m.label for o in scored for m in o.metrics))
    return [_metric_summary(label, scored) for label in labels]


def _metric_summary(label: str, scored: Sequence[StateOutcome]) -> MetricSummary:
    specs = [(o.run_id, m) for o in scored for m in o.metrics if m.label == label]
    spec = specs[0][1]
    measured = [(run_id, m.value) for run_id, m in specs if m.value is not None]
    common = {"label": label, "aggregate": spec.aggregate, "op": spec.op, "wanted": spec.wanted}
    if not measured:
        detail = f"no scored run measured {label}"
        return MetricSummary(**common, value=None, status="no_data", detail=detail, run_ids=[])
    value = _AGGREGATES[spec.aggregate]([v for _, v in measured])
    comparison = compare(value, spec.op, spec.wanted)
    return MetricSummary(
        **common,
        value=value,
        status="passed" if comparison.status == "passed" else "failed",
        detail=f"{spec.aggregate} over {len(measured)} runs is {render(value)}, {expectation(spec.op, spec.wanted)}",
        run_ids=[run_id for run_id, _ in measured],
    )


_AGGREGATES: dict[str, Callable[[Sequence[float]], float]] = {
    "mean": lambda v: sum(v) / len(v),
    "sum": lambda v: float(sum(v)),
    "min": lambda v: float(min(v)),
    "max": lambda v: float(max(v)),
}
