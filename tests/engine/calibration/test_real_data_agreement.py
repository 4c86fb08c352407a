"""Published agreement figures recomputed from the real DICES-350 data."""

from __future__ import annotations

import numpy as np
import pytest

from judge.core.scoring import agreement as ag
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.report import ratings_table, targets_for


def crowd_and_expert(items: list[CalibrationItem]) -> tuple[ag.Array, ag.Array]:
    targets = targets_for(items, "safety")
    return ratings_table(items, targets, "safety", {"crowd"}), ratings_table(
        items, targets, "safety", {"expert"}
    )


def test_dices_crowd_alpha_is_the_published_0_16(dices_items: list[CalibrationItem]) -> None:
    crowd, _ = crowd_and_expert(dices_items)
    assert crowd.shape == (350, 123)
    assert ag.krippendorff_alpha(crowd, "nominal") == pytest.approx(0.1609, abs=5e-4)


def test_dices_expert_against_crowd_majority_kappa_is_about_0_30(
    dices_items: list[CalibrationItem],
) -> None:
    crowd, expert = crowd_and_expert(dices_items)
    # majority of the Yes / No votes (Unsure left out, a tie goes to unsafe); the files' own
    # majority_human field gives 0.309 against the expert. Both are the "about 0.30" quoted.
    votes = np.where(crowd == 0.5, np.nan, crowd)
    majority = ag.majority_vote(votes)
    kappa = ag.quadratic_weighted_kappa(majority, expert[:, 0], 2)  # two categories: plain kappa
    assert kappa == pytest.approx(0.3143, abs=5e-4)


def test_dices_single_rater_ceiling_on_the_first_60_items(
    dices_items: list[CalibrationItem],
) -> None:
    crowd, _ = crowd_and_expert(dices_items[:60])
    # one person against the mean of the other 122: far from 1.0
    assert ag.leave_one_out(crowd, ag.spearman).mean == pytest.approx(0.4889, abs=5e-4)
    assert ag.leave_one_out(crowd, ag.mean_absolute_error).mean == pytest.approx(0.3345, abs=5e-4)
