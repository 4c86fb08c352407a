"""Agreement statistics against values worked by hand and published worked examples."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from judge.core.scoring import agreement as ag

NAN = math.nan

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers,
# 12 units, missing values. Published: nominal .743, ordinal .815, interval .849.
KRIPPENDORFF_EXAMPLE = np.array(
    [
        [1, 1, NAN, 1],
        [2, 2, 3, 2],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [2, 2, 2, 2],
        [1, 2, 3, 4],
        [4, 4, 4, 4],
        [1, 1, 2, 1],
        [2, 2, 2, 2],
        [NAN, 5, 5, 5],
        [NAN, NAN, 1, 1],
        [NAN, 3, NAN, NAN],
    ]
)


def test_spearman_of_one_swapped_pair_is_point_eight() -> None:
    # ranks differ by 1 on two items: rho = 1 - 6*2 / (4*(16-1)) = 0.8
    assert ag.spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)


def test_kendall_of_one_discordant_pair_in_six_is_two_thirds() -> None:
    # 5 concordant, 1 discordant of 6 pairs: (5 - 1) / 6
    assert ag.kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)


def test_kendall_tau_b_corrects_for_ties() -> None:
    # x=[1,1,2], y=[1,2,3]: nc=2, nd=0, ties in x: 1 pair; tau_b = 2 / sqrt((3-1)*(3-0))
    assert ag.kendall_tau_b([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / math.sqrt(6))


def test_correlation_is_none_when_a_side_is_constant() -> None:
    assert ag.spearman([0.5, 0.5, 0.5], [0.1, 0.2, 0.3]) is None
    assert ag.kendall_tau_b([1.0], [1.0]) is None


def test_missing_scores_are_dropped_pairwise() -> None:
    assert ag.spearman([1, 2, NAN, 3, 4], [1, 3, 9, 2, 4]) == pytest.approx(0.8)


def test_nominal_alpha_of_a_two_rater_table_worked_by_hand() -> None:
    # units (a,a) (a,b) (b,b) (b,b): o_aa=2, o_ab=o_ba=1, o_bb=4; n_a=3, n_b=5, n=8
    # alpha = 1 - (n-1) * 2 / (2 * n_a * n_b) = 1 - 14/30 = 8/15
    assert ag.krippendorff_alpha([[0, 0], [0, 1], [1, 1], [1, 1]], "nominal") == pytest.approx(
        8 / 15
    )


def test_interval_alpha_of_a_two_rater_table_worked_by_hand() -> None:
    # units (0,0) (0,1) (1,1): o_00=2, o_01=o_10=1, o_11=2; n_0=n_1=3, n=6
    # D_o = 2*1/6 = 1/3; D_e = 2*3*3*1 / (6*5) = 0.6; alpha = 1 - (1/3)/0.6 = 4/9
    assert ag.krippendorff_alpha([[0, 0], [0, 1], [1, 1]], "interval") == pytest.approx(4 / 9)


@pytest.mark.parametrize(
    ("level", "published"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)]
)
def test_alpha_matches_krippendorffs_published_example(level: ag.Level, published: float) -> None:
    assert ag.krippendorff_alpha(KRIPPENDORFF_EXAMPLE, level) == pytest.approx(published, abs=5e-4)


def test_alpha_is_none_when_nothing_can_disagree() -> None:
    assert ag.krippendorff_alpha([[1, 1], [1, 1]]) is None
    assert ag.krippendorff_alpha([[1, NAN], [NAN, 0]]) is None  # no unit has two ratings


def test_alpha_rejects_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        ag.krippendorff_alpha([[1, 1]], "ratio")  # type: ignore[arg-type]


def test_quadratic_weighted_kappa_worked_by_hand() -> None:
    # O: (0,0) (1,2) (2,2); weights (i-j)^2/4; sum w*O = 0.25; E = outer([1,1,1],[1,0,2])/3
    # sum w*E = (2 + 0.75 + 1) / 3 = 1.25; kappa = 1 - 0.25/1.25 = 0.8
    assert ag.quadratic_weighted_kappa([0, 1, 2], [0, 2, 2], 3) == pytest.approx(0.8)


def test_quadratic_weighted_kappa_of_perfect_agreement_is_one() -> None:
    assert ag.quadratic_weighted_kappa([0, 1, 2, 1], [0, 1, 2, 1], 3) == pytest.approx(1.0)


def test_to_categories_snaps_scores_to_scale_points() -> None:
    assert ag.to_categories([0.0, 0.2, 0.4, 0.8, 1.0], 5).tolist() == [0, 1, 2, 3, 4]


def test_mae_and_bias_on_the_unit_scale() -> None:
    judge, human = [0.5, 1.0, 0.0], [0.25, 0.5, 0.5]
    assert ag.mean_absolute_error(judge, human) == pytest.approx((0.25 + 0.5 + 0.5) / 3)
    assert ag.bias(judge, human) == pytest.approx((0.25 + 0.5 - 0.5) / 3)


def test_bootstrap_interval_is_seeded_and_brackets_the_value() -> None:
    x, y = [1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 4, 3, 6, 5, 8, 7]
    first = ag.bootstrap_interval(ag.spearman, x, y, seed=3)
    assert first == ag.bootstrap_interval(ag.spearman, x, y, seed=3)
    assert first.estimate == pytest.approx(1 - 6 * 8 / (8 * 63))
    assert first.low is not None and first.high is not None
    assert first.low <= first.estimate <= first.high and first.n == 8


def test_leave_one_out_compares_each_rater_with_the_mean_of_the_others() -> None:
    # r0=[0,1,0,1] vs mean(r1,r2)=[.5,1,.5,.5]: MAE (0.5+0+0.5+0.5)/4 = 0.375
    # r1=[0,1,1,1] vs [.5,1,0,.5]: 0.5;  r2=[1,1,0,0] vs [0,1,.5,1]: 0.625
    loo = ag.leave_one_out([[0, 0, 1], [1, 1, 1], [0, 1, 0], [1, 1, 0]], ag.mean_absolute_error)
    assert loo.per_rater == pytest.approx([0.375, 0.5, 0.625])
    assert loo.mean == pytest.approx(0.5) and loo.n_raters == 3


def test_leave_one_out_with_one_rater_per_item_has_no_ceiling() -> None:
    loo = ag.leave_one_out([[0.5, NAN], [NAN, 1.0]], ag.mean_absolute_error)
    assert loo.mean is None and loo.per_rater == [None, None]


def test_pass_spread_counts_identical_items_and_uses_the_sample_sd() -> None:
    spread = ag.pass_spread([[0.5, 0.5, 0.5], [0.2, 0.4, NAN], [NAN, NAN, NAN]])
    assert spread.items == 2 and spread.items_identical == 1
    assert spread.max_sd == pytest.approx(math.sqrt(0.02))  # sd of (0.2, 0.4) with n-1
    assert spread.mean_range == pytest.approx(0.1)


def test_denoising_gain_is_mean_of_passes_minus_single_pass() -> None:
    human = [0.0, 0.5, 1.0, 0.25]
    passes = [[0.0, 0.2], [0.6, 0.4], [1.0, 0.8], [0.4, 0.0]]
    # pass 0: [0,.6,1,.4] rho 1.0; pass 1: [.2,.4,.8,0] rho 0.8; mean [.1,.5,.9,.2] rho 1.0
    gain = ag.denoising_gain(passes, human, ag.spearman)
    assert gain.single_pass == pytest.approx(0.9)
    assert gain.averaged == pytest.approx(1.0)
    assert gain.gain == pytest.approx(0.1)


def test_majority_vote_and_extra_rater() -> None:
    assert ag.majority_vote([[1, 1, 0], [0, 0, NAN]]).tolist() == [1.0, 0.0]
    assert ag.with_extra_rater([[1, 0], [0, 0]], [1.0, None]).shape == (2, 3)


def test_agreement_module_stays_pure() -> None:
    code = (
        "import sys, judge.core.scoring.agreement; "
        "bad = [m for m in ('litellm', 'sqlmodel', 'fastapi', 'judge.engine.judging', 'judge.server.store') if m in sys.modules]; "
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_quadratic_weighted_kappa_is_undetermined_at_one_pair() -> None:
    # one disagreeing pair: observed equals its own chance table, so 1 - w/w would print 0.00
    assert ag.quadratic_weighted_kappa([2], [0], 3) is None
    assert ag.quadratic_weighted_kappa([2, 1], [0, 1], 3) is not None
