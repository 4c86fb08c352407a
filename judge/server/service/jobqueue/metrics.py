"""The ``/metrics`` answer: this process's judge counters (``judge.engine.telemetry.prometheus``) and the job
queue's gauges, read from the store at scrape time.

The gauges are right on any node serving ``/metrics``, however many workers there are:
``judge_runs{status}`` (queued, scoring, scored, not_scored: the queue depth and the runs
scored) and ``judge_oldest_queued_run_seconds``; and the drift of the judge's agreement with
the owners' labels between eras (``judge.server.service.label_metrics``).
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.engine import Engine

from judge.engine.telemetry.prometheus import REGISTRY
from judge.server.service.label_metrics import DriftCollector
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


def exposition(engine: Engine) -> bytes:
    """The text answer of ``/metrics``: this process's counters and the store's queue gauges."""
    queue = CollectorRegistry(auto_describe=False)
    queue.register(QueueCollector(engine))
    queue.register(DriftCollector(engine))
    return generate_latest(REGISTRY) + generate_latest(queue)
