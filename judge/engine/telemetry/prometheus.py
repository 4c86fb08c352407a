"""Prometheus counters of what the judge costs, per process, counted as each pass is stored
where the judge calls happen (docs/service.md); the queue's gauges and ``/metrics`` itself are
in ``judge.server.service.jobqueue.metrics``."""

from __future__ import annotations

import threading

from prometheus_client import CollectorRegistry, Counter, Histogram

from judge.core.domain.cost import priced_usd
from judge.core.domain.judging import JudgePass
from judge.core.domain.pairwise import PairwisePass
from judge.core.domain.scorecard import Scorecard
from judge.engine.pipeline import OnSeatPass

REGISTRY = CollectorRegistry(auto_describe=True)
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)


def _counter(name: str, documentation: str, *labels: str) -> Counter:
    return Counter(name, documentation, labels, registry=REGISTRY)


CALLS = _counter("judge_calls", "Judge calls made (every attempt)", "model")
RETRIES = _counter("judge_retries", "Judge call attempts beyond the first", "model")
LATENCY = Histogram(
    "judge_pass_seconds",
    "Latency of one judge pass, retries included",
    ["model"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
TOKENS = _counter("judge_tokens", "Judge tokens", "model", "direction")
PASSES = _counter("judge_passes", "Judge passes stored, by parse status", "model", "parse_status")
UNSCORED = _counter("judge_unscored_passes", "Passes whose verdict could not be used", "model")
UNPARSEABLE = _counter(
    "judge_unparseable_passes",
    "Passes whose reply held no readable verdict, by whether the verdict schema was "
    "enforced (the unparseable rate is this over judge_passes_total)",
    "model",
    "structured",
)
DISTRIBUTIONS = _counter(
    "judge_distribution_passes", "Passes that recorded a distribution over the score grid", "model"
)

TAMPER_SEATS = _counter(
    "judge_tamper_flagged_seats",
    "Scored seats whose events held judge-directed text withheld from the judge, by kind of "
    "finding (a seat counts once per kind it shows)",
    "kind",
)

COST = _counter("judge_cost_usd", "Judge cost in US dollars, passes with a price", "model")
UNPRICED = _counter(
    "judge_unpriced_passes",
    "Passes without a price in litellm's map (their cost is unknown, not 0)",
    "model",
)
RUN_COST = _counter(
    "judge_run_cost_usd", "Dollars of the scored runs with a price, by scenario", "scenario"
)
RUN_TOKENS = _counter(
    "judge_run_tokens", "Judge tokens of the scored runs, by scenario", "scenario"
)
RUNS_COSTED = _counter(
    "judge_runs_costed", "Scored runs counted in the run cost, by scenario", "scenario"
)
CPU = _counter(
    "judge_embedded_cpu_seconds",
    "Process CPU seconds spent judging with the in-process (embedded) judge",
)
#: Scenario ids come with submitted runs: past this many labels they count as ``other``, so
#: a flood of made-up scenarios cannot grow the metrics without bound.
MAX_SCENARIO_LABELS = 200
_scenarios: set[str] = set()
_scenarios_lock = threading.Lock()


def scenario_label(scenario_id: str) -> str:
    with _scenarios_lock:
        if scenario_id in _scenarios or len(_scenarios) < MAX_SCENARIO_LABELS:
            _scenarios.add(scenario_id)
            return scenario_id
    return "other"


def _observe_call(judge_pass: JudgePass | PairwisePass, *, scored: bool) -> None:
    """Count what any stored pass cost and how it parsed."""
    model = judge_pass.model
    CALLS.labels(model).inc(judge_pass.attempts)
    RETRIES.labels(model).inc(max(0, judge_pass.attempts - 1))
    LATENCY.labels(model).observe(judge_pass.latency_ms / 1000)
    prompt, out = judge_pass.prompt_tokens or 0, judge_pass.completion_tokens or 0
    cached = judge_pass.cached_prompt_tokens or 0
    if not _count_tokens(model, prompt, out, cached, judge_pass.cost_usd):
        UNPRICED.labels(model).inc()
    PASSES.labels(model, judge_pass.parse_status).inc()
    if not scored:
        UNSCORED.labels(model).inc()


def observe_pass(judge_pass: JudgePass) -> None:
    model = judge_pass.model
    _observe_call(judge_pass, scored=judge_pass.score is not None)
    if judge_pass.parse_status in ("unparseable", "out_of_range"):
        UNPARSEABLE.labels(model, str(judge_pass.structured_output).lower()).inc()
    if judge_pass.score_distribution is not None:
        DISTRIBUTIONS.labels(model).inc()


def observe_reply(
    model: str, *, prompt: int, completion: int, cached: int, cost_usd: float | None
) -> None:
    """Count one judge call that makes no pass (an alignment's clarification request): its
    call, tokens and price."""
    CALLS.labels(model).inc()
    _count_tokens(model, prompt, completion, cached, cost_usd)


def _count_tokens(model: str, prompt: int, out: int, cached: int, cost_usd: float | None) -> bool:
    """Count one call's tokens and dollars; False when it has no price."""
    for direction, tokens in (("in", prompt), ("out", out), ("cached", cached)):
        TOKENS.labels(model, direction).inc(tokens)
    if (usd := priced_usd(cost_usd, prompt + out)) is not None:
        COST.labels(model).inc(usd)
    return usd is not None


def observe_card(card: Scorecard) -> None:
    """Count a stored card's flagged seats (once per kind of finding) and its run's cost."""
    for seat in card.seats.values():
        if seat.tamper is not None and seat.tamper.flagged:
            for kind in sorted({f.kind for f in seat.tamper.findings}):
                TAMPER_SEATS.labels(kind).inc()
    observe_run_cost(card)


def observe_run_cost(card: Scorecard) -> None:
    """Count what a stored run's judging cost, under its scenario."""
    cost = card.cost
    if cost is None:
        return
    scenario = scenario_label(card.scenario_id)
    RUNS_COSTED.labels(scenario).inc()
    RUN_TOKENS.labels(scenario).inc(cost.tokens)
    if cost.cost_usd is not None:
        RUN_COST.labels(scenario).inc(cost.cost_usd)
    if cost.cpu_s is not None:
        CPU.inc(cost.cpu_s)


def observe_pairwise_pass(judge_pass: PairwisePass) -> None:
    """Count one stored pairwise pass like any judge pass (unscored: it names no seat)."""
    _observe_call(judge_pass, scored=judge_pass.winner is not None)


def observed(on_pass: OnSeatPass) -> OnSeatPass:
    """``on_pass`` that also counts the pass once it is stored."""

    def both(seat: str, judge_pass: JudgePass) -> None:
        on_pass(seat, judge_pass)
        observe_pass(judge_pass)

    return both
