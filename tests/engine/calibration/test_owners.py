"""Drift between two eras' agreement with the owners (docs/calibration.md, "Drift")."""

from __future__ import annotations

import pytest

from judge.core.domain.interval import Interval
from judge.engine.calibration.owners import EraDrift


def drift(now: float | None, before_low: float | None) -> EraDrift:
    return EraDrift(
        trait="safety",
        era_id="b",
        previous_era_id="a",
        spearman=Interval(estimate=now, low=None, high=None, n=40),
        previous_spearman=Interval(estimate=0.6, low=before_low, high=0.8, n=40),
    )


@pytest.mark.parametrize(
    ("now", "before_low", "dropped"),
    [
        (0.2, 0.4, True),
        (0.4, 0.4, False),
        (0.5, 0.4, False),
        (None, 0.4, False),
        (0.2, None, False),
    ],
)
def test_an_era_has_dropped_only_below_the_previous_eras_interval(
    now: float | None, before_low: float | None, dropped: bool
) -> None:
    assert drift(now, before_low).dropped is dropped


def test_the_items_counted_are_those_the_spearman_was_computed_over() -> None:
    assert drift(0.5, 0.4).n_items == 40


def test_the_drift_json_keeps_its_keys_and_derives_the_last_two() -> None:
    written = drift(0.2, 0.4).model_dump(mode="json")

    assert list(written) == [
        "trait",
        "era_id",
        "previous_era_id",
        "spearman",
        "previous_spearman",
        "n_items",
        "dropped",
    ]
    assert (written["n_items"], written["dropped"]) == (40, True)
