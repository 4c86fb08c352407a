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

Read from the store at scrape time (any node serving ``/metrics``, so it is right however many
workers there are): ``judge_runs{status}`` (queued, scoring, scored, not_scored: the queue
depth and the runs scored), ``judge_oldest_queued_run_seconds``, and the judge's drift from
the owners' labels between eras (docs/calibration.md, "Drift"):
``judge_label_drift_spearman{trait,era,previous_era,side}`` (``side`` ``now``: the newer era,
``before``: the older one, on the items labelled and judged in both) and
``judge_label_drift_dropped{trait,era,previous_era}`` (1 when the newer era's Spearman lies
below the older era's bootstrap interval).
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.engine import Engine

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


class QueueCollector(Collector):
    """Run counts by status and the age of the oldest queued run, read at scrape time."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from judge.service.queue_status import run_counts

        counts = run_counts(self.engine)
        runs = GaugeMetricFamily("judge_runs", "Runs by scoring status", labels=["status"])
        for status, n in counts.by_status.items():
            runs.add_metric([status], n)
        yield runs
        yield GaugeMetricFamily(
            "judge_oldest_queued_run_seconds",
            "Age of the oldest queued run (0: none)",
            value=counts.oldest_queued_s or 0.0,
        )


class DriftCollector(Collector):
    """Each era's agreement with the owners against the era before it, read at scrape time."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from judge.service.label_agreement import stored_drift

        found = stored_drift(self.engine)
        names = ["trait", "era", "previous_era"]
        spearman = GaugeMetricFamily(
            "judge_label_drift_spearman",
            "Spearman of the judge against the owners' labels on the items two eras share",
            labels=[*names, "side"],
        )
        dropped = GaugeMetricFamily(
            "judge_label_drift_dropped",
            "1 when the newer era's Spearman lies below the older era's bootstrap interval",
            labels=names,
        )
        for d in found:
            key = [d.trait, d.era_id, d.previous_era_id]
            for side, value in (("now", d.spearman.value), ("before", d.previous_spearman.value)):
                if value is not None:
                    spearman.add_metric([*key, side], value)
            dropped.add_metric(key, float(d.dropped))
        yield spearman
        yield dropped


def exposition(engine: Engine) -> bytes:
    """The text answer of ``/metrics``: this process's counters and the store's gauges."""
    queue = CollectorRegistry(auto_describe=False)
    queue.register(QueueCollector(engine))
    queue.register(DriftCollector(engine))
    return generate_latest(REGISTRY) + generate_latest(queue)
