"""The ``/metrics`` answer: this process's judge counters and the store's gauges, read at scrape
time (docs/deploy.md, "What the queue guarantees"; docs/calibration.md, "Drift")."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.engine import Engine

from judge.engine.telemetry.prometheus import REGISTRY
from judge.server.service.label_agreement import stored_drift
from judge.server.store.job_status import run_counts


class QueueCollector(Collector):
    """Run counts by status and the age of the oldest queued run, read at scrape time."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[GaugeMetricFamily]:
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
    """Each era's agreement with the owners against the era before it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[GaugeMetricFamily]:
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
        for d in stored_drift(self.engine):
            key = [d.trait, d.era_id, d.previous_era_id]
            for side, value in (
                ("now", d.spearman.estimate),
                ("before", d.previous_spearman.estimate),
            ):
                if value is not None:
                    spearman.add_metric([*key, side], value)
            dropped.add_metric(key, float(d.dropped))
        yield spearman
        yield dropped


def exposition(engine: Engine) -> bytes:
    """The text answer of ``/metrics``: this process's counters and the store's queue gauges."""
    queue = CollectorRegistry(auto_describe=False)
    queue.register(QueueCollector(engine))
    queue.register(DriftCollector(engine))
    return generate_latest(REGISTRY) + generate_latest(queue)
