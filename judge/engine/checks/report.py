"""Plain-text views of outcomes, rollout summaries and comparisons, for the CLI."""

from __future__ import annotations

from judge.core.domain.checks import CheckResult, MetricValue, RolloutSummary, StateOutcome, Tally
from judge.core.domain.comparison import AgentComparison, ComparedPair
from judge.core.scoring.operators import expectation

_MARK = {"passed": "PASS", "failed": "FAIL", "error": "ERROR"}
_FLAG = {True: "yes", False: "no", None: "-"}


def render_outcome(outcome: StateOutcome) -> str:
    """One run's outcome: the verdict line, every check with its detail, the summary counts."""
    lines = [
        (
            f"run {outcome.run_id}  scenario {outcome.scenario_id}  seed {outcome.seed}  "
            f"adversary {outcome.adversary_config}"
        ),
        _headline(outcome),
    ]
    if outcome.not_scored_reason:
        lines.append(f"not scored: {outcome.not_scored_reason}")
    lines += ["checks:"] + [_check_line(c) for c in outcome.checks]
    lines.append(f"failed required: {', '.join(outcome.failed_required) or '-'}")
    lines.append(f"failed optional: {', '.join(outcome.failed_optional) or '-'}")
    lines.append(_summary_line(outcome))
    d = outcome.diagnostics
    lines.append(
        f"diagnostics (not scored): {d.tool_calls} tool calls, {d.tool_errors} tool errors, from the {d.source}"
    )
    lines += [_metric_line(m) for m in outcome.metrics]
    return "\n".join(lines)


def _headline(outcome: StateOutcome) -> str:
    reward = "none" if outcome.reward is None else f"{outcome.reward:+d}".replace("+0", "0")
    fraction = "-" if outcome.check_reward is None else f"{outcome.check_reward:.3f}"
    return (
        f"outcome {outcome.outcome} (reward {reward})  verdict {outcome.verdict}  "
        f"passed {_FLAG[outcome.passed]}  checks passed {fraction}"
    )


def _check_line(check: CheckResult) -> str:
    need = "required" if check.required else "optional"
    return f"  {_MARK[check.status]:<5} {check.label:<28} {check.kind:<9} {need:<8} {check.evaluator:<15} {check.detail}"


def _summary_line(outcome: StateOutcome) -> str:
    s = outcome.summary
    allowed = "no limit" if s.allowed_contacts is None else f"{s.allowed_contacts} allowed"
    return (
        f"summary: false completion {_FLAG[s.false_completion]}, duplicate effects "
        f"{s.duplicate_effects}, recovered {_FLAG[s.recovered]} (faults {s.faults}), customer "
        f"contacts {s.customer_contacts} ({allowed}), unnecessary interruptions "
        f"{s.unnecessary_interruptions}, rejected attempts {s.rejected_attempts}"
    )


def _metric_line(metric: MetricValue) -> str:
    value = metric.error or f"{metric.value:g}"
    return f"metric {metric.label}: {value} (judged across runs: {metric.aggregate}, {expectation(metric.op, metric.wanted)})"


def render_rollouts(summary: RolloutSummary) -> str:
    """Best, worst and mean, then every rate with its count and the runs behind it."""
    lines = [f"rollouts: {summary.n_runs} runs, {summary.n_scored} scored"]
    for name, spread in (("reward", summary.reward), ("checks passed", summary.check_reward)):
        if spread is not None:
            lines.append(
                f"{name}: best {spread.best:g}, worst {spread.worst:g}, mean {spread.mean:.3f}"
            )
    lines.append(_tally_line("passed", summary.passed))
    lines += [_tally_line(name, t) for name, t in summary.outcomes.items()]
    lines += [_tally_line(f"verdict {name}", t) for name, t in summary.verdicts.items()]
    lines.append(_tally_line("unscoreable", summary.unscoreable))
    lines += [_tally_line(name.replace("_", " "), t) for name, t in summary.counts.items()]
    lines += [f"metric {m.label}: {m.status}, {m.detail}" for m in summary.metrics]
    return "\n".join(lines)


def _tally_line(name: str, tally: Tally) -> str:
    rate = "outside the rates" if tally.rate is None else f"{tally.rate:.3f}"
    total = f", {tally.total} in all" if tally.total is not None else ""
    runs = ", ".join(tally.run_ids) or "-"
    return f"  {name}: {tally.count} ({rate}{total}) runs: {runs}"


def render_comparison(comparison: AgentComparison) -> str:
    """Each pair's outcomes and difference, the paired test, and the unpaired runs."""
    a, b = comparison.label_a, comparison.label_b
    lines = [f"matched comparison: A = {a}, B = {b}, {len(comparison.pairs)} pairs"]
    lines += [_pair_line(p) for p in comparison.pairs]
    t = comparison.test
    p_value = "-" if t.p_value is None else f"{t.p_value:.4g}"
    lines.append(
        f"test on {t.measure}: {t.method}, A better {t.a_better}, B better {t.b_better}, "
        f"ties {t.ties}, p = {p_value}; {t.detail}"
    )
    verdict = {"a": f"{a} is better", "b": f"{b} is better", None: "neither side is shown better"}
    lines.append(f"at alpha {t.alpha:g}: {verdict[t.better]}")
    lines += [f"unpaired ({u.side.upper()}) {u.run_id}: {u.reason}" for u in comparison.unpaired]
    return "\n".join(lines)


def _pair_line(pair: ComparedPair) -> str:
    difference = "not scored" if pair.difference is None else f"A-B {pair.difference:+g}"
    return (
        f"  {pair.scenario_id} seed {pair.seed} {pair.adversary_config}: "
        f"{pair.run_a} {pair.outcome_a} vs {pair.run_b} {pair.outcome_b}: {difference}"
    )
