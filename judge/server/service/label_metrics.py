"""The ``/metrics`` gauges of drift between eras in the judge's agreement with the owners'
labels, read from the store at scrape time (docs/calibration.md, "Drift"):

- ``judge_label_drift_spearman{trait,era,previous_era,side}``: ``side`` ``now`` is the newer
  era, ``before`` the older one, on the items labelled and judged in both;
- ``judge_label_drift_dropped{trait,era,previous_era}``: 1 when the newer era's Spearman lies
  below the older era's bootstrap interval.
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.engine import Engine

from judge.server.service.label_agreement import stored_drift


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
