"""Prometheus metrics (prometheus-client): what the judge costs and how the queue stands.

Per process, counted where the judge calls happen (``judge worker``, or ``judge serve`` with
in-process workers, and pairwise comparisons) as each pass is stored:

- ``judge_calls_total{model}``: judge calls made (every attempt, retries included);
- ``judge_retries_total{model}``: attempts beyond the first;
- ``judge_pass_seconds{model}``: latency of a pass, retries and their waits included;
- ``judge_tokens_total{model,direction}``: prompt (``in``) and completion (``out``) tokens;
- ``judge_passes_total{model,parse_status}``; ``judge_unscored_passes_total{model}``;
- ``judge_tamper_flagged_seats_total{kind}``: scored seats whose events held judge-directed
  text, counted once per kind of finding on the seat as its scorecard is stored
  (docs/integrity.md).

The job queue's gauges, read from the store at scrape time, and the ``/metrics`` answer that
joins them to these counters are in ``judge.service.jobqueue.metrics``.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram

from judge.deprecations import moved, same_names
from judge.domain.judging import JudgePass
from judge.domain.pairwise import PairwisePass
from judge.domain.scorecard import Scorecard
from judge.pipeline import OnSeatPass

REGISTRY = CollectorRegistry(auto_describe=True)
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)

CALLS = Counter("judge_calls", "Judge calls made (every attempt)", ["model"], registry=REGISTRY)
RETRIES = Counter(
    "judge_retries", "Judge call attempts beyond the first", ["model"], registry=REGISTRY
)
LATENCY = Histogram(
    "judge_pass_seconds",
    "Latency of one judge pass, retries included",
    ["model"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
TOKENS = Counter("judge_tokens", "Judge tokens", ["model", "direction"], registry=REGISTRY)
PASSES = Counter(
    "judge_passes",
    "Judge passes stored, by parse status",
    ["model", "parse_status"],
    registry=REGISTRY,
)
UNSCORED = Counter(
    "judge_unscored_passes", "Passes whose verdict could not be used", ["model"], registry=REGISTRY
)
UNPARSEABLE = Counter(
    "judge_unparseable_passes",
    "Passes whose reply held no readable verdict, by whether the verdict schema was "
    "enforced (the unparseable rate is this over judge_passes_total)",
    ["model", "structured"],
    registry=REGISTRY,
)
DISTRIBUTIONS = Counter(
    "judge_distribution_passes",
    "Passes that recorded a distribution over the score grid",
    ["model"],
    registry=REGISTRY,
)

TAMPER_SEATS = Counter(
    "judge_tamper_flagged_seats",
    "Scored seats whose events held judge-directed text withheld from the judge, by kind of "
    "finding (a seat counts once per kind it shows)",
    ["kind"],
    registry=REGISTRY,
)


def observe_pass(judge_pass: JudgePass) -> None:
    """Count one stored pass."""
    model = judge_pass.model
    CALLS.labels(model).inc(judge_pass.attempts)
    RETRIES.labels(model).inc(max(0, judge_pass.attempts - 1))
    LATENCY.labels(model).observe(judge_pass.latency_ms / 1000)
    TOKENS.labels(model, "in").inc(judge_pass.prompt_tokens or 0)
    TOKENS.labels(model, "out").inc(judge_pass.completion_tokens or 0)
    PASSES.labels(model, judge_pass.parse_status).inc()
    if judge_pass.score is None:
        UNSCORED.labels(model).inc()
    if judge_pass.parse_status in ("unparseable", "out_of_range"):
        UNPARSEABLE.labels(model, str(judge_pass.structured_output).lower()).inc()
    if judge_pass.score_distribution is not None:
        DISTRIBUTIONS.labels(model).inc()


def observe_card(card: Scorecard) -> None:
    """Count the flagged seats of a stored scorecard, once per kind of finding on each."""
    for seat in card.seats.values():
        if seat.tamper is not None and seat.tamper.flagged:
            for kind in sorted({f.kind for f in seat.tamper.findings}):
                TAMPER_SEATS.labels(kind).inc()


def observe_pairwise_pass(judge_pass: PairwisePass) -> None:
    """Count one stored pairwise pass like any judge pass (calls, retries, latency, tokens,
    parse status; an unscored one names no seat)."""
    model = judge_pass.model
    CALLS.labels(model).inc(judge_pass.attempts)
    RETRIES.labels(model).inc(max(0, judge_pass.attempts - 1))
    LATENCY.labels(model).observe(judge_pass.latency_ms / 1000)
    TOKENS.labels(model, "in").inc(judge_pass.prompt_tokens or 0)
    TOKENS.labels(model, "out").inc(judge_pass.completion_tokens or 0)
    PASSES.labels(model, judge_pass.parse_status).inc()
    if judge_pass.winner is None:
        UNSCORED.labels(model).inc()


def observed(on_pass: OnSeatPass) -> OnSeatPass:
    """``on_pass`` that also counts the pass once it is stored."""

    def both(seat: str, judge_pass: JudgePass) -> None:
        on_pass(seat, judge_pass)
        observe_pass(judge_pass)

    return both


#: The queue's gauges moved beside the job queue (the service imports this module, never back).
__getattr__ = moved(
    __name__, same_names("judge.service.jobqueue.metrics", ["QueueCollector", "exposition"])
)
