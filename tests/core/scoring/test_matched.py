"""Matched comparison: pairing by scenario, seed and adversary; the paired test."""

from __future__ import annotations

import pytest

from judge.core.scoring.matched import matched_comparison, paired_test
from tests.core.scoring.builders import make_outcome


def test_runs_pair_by_scenario_seed_and_adversary_and_leftovers_are_listed() -> None:
    a = [make_outcome("a1", "verified", seed=1), make_outcome("a2", "verified", seed=2),
         make_outcome("a3", "not_achieved", seed=3, adversary="hard")]  # fmt: skip
    b = [make_outcome("b2", "rule_violated", seed=2), make_outcome("b3", "verified", seed=3),
         make_outcome("b4", "verified", seed=4)]  # fmt: skip
    comparison = matched_comparison(a, b, label_a="alpha", label_b="beta")
    assert [(p.run_a, p.run_b, p.difference, p.better) for p in comparison.pairs] == [
        ("a2", "b2", 2.0, "a")
    ]
    assert [(u.side, u.run_id) for u in comparison.unpaired] == [
        ("a", "a1"), ("b", "b3"), ("a", "a3"), ("b", "b4"),
    ]  # fmt: skip
    assert comparison.unpaired[0].reason == (
        "beta has 0 run(s) with this scenario, seed and adversary config and this side has 1; "
        "the extra run(s) have no partner"
    )


def test_repeats_pair_in_run_id_order_and_the_extra_is_unpaired() -> None:
    a = [make_outcome("a-2", "verified"), make_outcome("a-1", "not_achieved")]
    b = [make_outcome("b-1", "not_achieved")]
    comparison = matched_comparison(a, b)
    assert [(p.run_a, p.run_b, p.difference) for p in comparison.pairs] == [("a-1", "b-1", 0.0)]
    assert [(u.side, u.run_id) for u in comparison.unpaired] == [("a", "a-2")]


def test_an_empty_adversary_config_is_the_same_world_as_none() -> None:
    a = [make_outcome("a1", "verified", adversary="")]
    b = [make_outcome("b1", "not_achieved", adversary=None)]
    comparison = matched_comparison(a, b)
    assert [(p.run_a, p.run_b, p.difference) for p in comparison.pairs] == [("a1", "b1", 1.0)]
    assert comparison.unpaired == []


def test_a_run_without_a_seed_cannot_be_matched() -> None:
    comparison = matched_comparison([make_outcome("a", "verified", seed=None)], [])
    (unpaired,) = comparison.unpaired
    assert (unpaired.run_id, unpaired.reason) == (
        "a",
        "the run has no seed, so no run can be matched with it",
    )


def test_a_pair_with_an_unscored_run_stays_listed_but_out_of_the_test() -> None:
    a = [make_outcome("a1", "verified", seed=1), make_outcome("a2", "not_scored", seed=2)]
    b = [make_outcome("b1", "not_achieved", seed=1), make_outcome("b2", "verified", seed=2)]
    comparison = matched_comparison(a, b)
    assert [(p.outcome_a, p.outcome_b, p.difference, p.better) for p in comparison.pairs] == [
        ("verified", "not_achieved", 1.0, "a"),
        ("not_scored", "verified", None, None),
    ]
    assert comparison.unscoreable_pairs == [("a2", "b2")]
    assert comparison.test.n_pairs == 1


def test_the_check_fraction_can_be_the_measure() -> None:
    a = [make_outcome("a1", "not_achieved", check_fraction=0.75)]
    b = [make_outcome("b1", "not_achieved", check_fraction=0.5)]
    pair = matched_comparison(a, b, measure="check_reward").pairs[0]
    assert (pair.value_a, pair.value_b, pair.difference) == (0.75, 0.5, 0.25)


def test_wilcoxon_is_exact_when_differences_have_distinct_sizes() -> None:
    test = paired_test([0.5, 0.25, 0.125, 0.3, -0.1], "check_reward", 0.05)
    assert (test.method, test.statistic, test.p_value) == ("wilcoxon", 1.0, 0.125)
    assert (test.a_better, test.b_better, test.ties, test.better) == (4, 1, 0, None)
    assert test.mean_difference == pytest.approx(0.215)
    assert test.detail == "Wilcoxon signed-rank (exact) on 5 untied pairs; 0 tied pair(s) left out"


def test_wilcoxon_enumerates_sign_flips_when_sizes_tie() -> None:
    test = paired_test([2, 2, 1, 2, 1, 1, 2, 1, 0], "reward", 0.05)
    assert test.method == "wilcoxon"
    assert test.p_value == pytest.approx(2 / 2**8)
    assert (test.better, test.ties) == ("a", 1)
    assert test.detail.startswith(
        "Wilcoxon signed-rank (exact over all sign flips) on 8 untied pairs"
    )


def test_the_sign_test_is_used_when_ties_are_at_least_half() -> None:
    test = paired_test([-2, -1, -1, 0, 0, 0], "reward", 0.05)
    assert test.method == "sign_test"
    assert (test.statistic, test.p_value) == (0.0, 0.25)
    assert (test.a_better, test.b_better, test.ties, test.better) == (0, 3, 3, None)
    assert test.detail == (
        "sign test (exact binomial) on 3 untied pairs: 3 of 6 pairs tied, too many for ranks to mean much"
    )


def test_a_consistent_difference_names_the_better_side() -> None:
    test = paired_test([-1.0] * 7 + [0.0] * 7, "reward", 0.05)
    assert test.method == "sign_test"
    assert test.p_value == pytest.approx(2 / 2**7)
    assert test.better == "b"


def test_every_pair_tied_gives_no_test() -> None:
    test = paired_test([0.0, 0.0], "reward", 0.05)
    assert (test.method, test.p_value, test.better, test.detail) == (
        "none",
        None,
        None,
        "every scored pair tied",
    )
    assert paired_test([], "reward", 0.05).detail == "no scored pair"
