"""The calibration map's isotonic fit (docs/alignment.md, "A calibration map")."""

from __future__ import annotations

import math

import numpy as np

from judge.core.scoring.isotonic import isotonic_map, pool_adjacent_violators


def test_pool_adjacent_violators_merges_a_falling_pair_into_its_weighted_mean() -> None:
    fitted = pool_adjacent_violators([[0.1, 0.0, 1.0], [0.2, 1.0, 1.0], [0.3, 0.5, 1.0]])

    assert [round(owners, 6) for _, owners, _ in fitted] == [0.0, 0.75]
    assert fitted[1][0] == 0.25 and fitted[1][2] == 2.0


def test_a_squeezed_judge_is_stretched_onto_the_owners_scale() -> None:
    found = isotonic_map([0.2, 0.2, 0.4, 0.6], [0.0, 0.0, 0.5, 1.0])

    assert found is not None
    assert [(p.judge, p.owners) for p in found.points] == [(0.2, 0.0), (0.4, 0.5), (0.6, 1.0)]
    assert list(found.apply([0.2, 0.5, 0.9])) == [0.0, 0.75, 1.0]


def test_the_map_never_falls_and_keeps_an_unscored_seat_unscored() -> None:
    rng = np.random.default_rng(3)
    judge = rng.random(50)
    owners = np.clip(judge + rng.normal(0, 0.3, 50), 0, 1)
    found = isotonic_map(judge, owners)

    assert found is not None
    values = [p.owners for p in found.points]
    assert values == sorted(values)
    assert math.isnan(found.apply([float("nan")])[0])


def test_no_pair_scored_by_both_sides_gives_no_map() -> None:
    assert isotonic_map([float("nan")], [0.5]) is None
