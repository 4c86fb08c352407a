"""The held-out proof's paired bootstrap and adoption rule (docs/alignment.md, "The proof")."""

from __future__ import annotations

import pytest

from judge.core.domain.interval import Interval
from judge.engine.calibration.align_proof import PairedSides, adoptable, paired_gain


def sides(candidate: list[float | None]) -> PairedSides:
    return PairedSides(
        runs=["a", "a", "b", "c", "d", "e"],
        baseline=[0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
        candidate=candidate,
        owners=[1.0, 0.0, 1.0, 0.0, 0.5, 1.0],
    )


def test_a_candidate_equal_to_the_baseline_gains_exactly_nothing() -> None:
    gain = paired_gain(sides([0.5] * 6), "mae", seed=1)

    assert (gain.estimate, gain.low, gain.high, gain.n) == (0.0, 0.0, 0.0, 5)


def test_a_candidate_that_matches_the_owners_gains_their_whole_error() -> None:
    gain = paired_gain(sides([1.0, 0.0, 1.0, 0.0, 0.5, 1.0]), "mae", seed=1)

    assert gain.estimate == pytest.approx(5 / 12)
    assert gain.low is not None and 0 < gain.low <= gain.estimate <= (gain.high or 0)
    assert gain.method == "paired bootstrap over runs"


def test_the_interval_is_the_same_for_the_same_seed() -> None:
    better = [1.0, 0.0, 0.5, 0.5, 0.5, 1.0]

    assert paired_gain(sides(better), "mae", seed=7) == paired_gain(sides(better), "mae", seed=7)


def test_a_spearman_gain_is_undefined_while_the_baseline_is_constant() -> None:
    gain = paired_gain(sides([1.0, 0.0, 1.0, 0.0, 0.5, 1.0]), "spearman", seed=1)

    assert gain.estimate is None and gain.low is None


@pytest.mark.parametrize(
    ("low", "adopt"), [(0.01, True), (0.0, False), (-0.2, False), (None, False)]
)
def test_only_an_interval_wholly_above_zero_may_be_adopted(low: float | None, adopt: bool) -> None:
    assert adoptable(Interval(estimate=0.1, low=low, high=0.3)) is adopt
