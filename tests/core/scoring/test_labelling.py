"""The labelling queue's rules: why an item is targeted, the uniform sample's rate and its
stability, and the inverse-probability weights that read agreement back for every item."""

from __future__ import annotations

import pytest

from judge.core.scoring.labelling import (
    ItemFigures,
    QueueRules,
    in_uniform_sample,
    pick,
    targeted_reasons,
    weighted_error,
)

RULES = QueueRules()


def item(**changes: object) -> ItemFigures:
    base = ItemFigures(
        key="run\x1fbuyer\x1fnegotiation",
        pass_scores=[0.8, 0.8, 0.8],
        judge_means=[],
        score=0.8,
        thresholds=(0.5,),
        tamper=False,
    )
    return base._replace(**changes)


def test_passes_wider_than_the_range_threshold_are_targeted() -> None:
    assert targeted_reasons(item(pass_scores=[0.2, 0.6, 0.8]), RULES) == ["wide_spread"]
    assert targeted_reasons(item(pass_scores=[0.7, 0.8, 0.9]), RULES) == []


def test_a_panel_whose_judges_disagree_is_targeted_and_one_judge_never_is() -> None:
    assert targeted_reasons(item(judge_means=[0.2, 0.9]), RULES) == ["panel_disagreement"]
    assert targeted_reasons(item(judge_means=[0.9]), RULES) == []


def test_a_score_near_any_threshold_is_targeted() -> None:
    assert targeted_reasons(item(score=0.55), RULES) == ["near_threshold"]
    assert targeted_reasons(item(score=0.35, thresholds=(0.5, 0.3)), RULES) == ["near_threshold"]
    assert targeted_reasons(item(score=None), RULES) == []


def test_judge_directed_text_is_targeted() -> None:
    assert targeted_reasons(item(tamper=True), RULES) == ["tamper"]


def test_a_targeted_item_is_always_picked_with_weight_one() -> None:
    chosen = pick(item(tamper=True, score=0.5), RULES)

    assert chosen is not None
    assert chosen.reasons == ["near_threshold", "tamper"]
    assert (chosen.inclusion_probability, chosen.weight) == (1.0, 1.0)


def test_the_uniform_sample_takes_about_its_rate_and_weighs_back_by_its_inverse() -> None:
    keys = [f"run-{n}\x1fbuyer\x1fnegotiation" for n in range(20_000)]
    picked = [pick(item(key=k), RULES) for k in keys]
    taken = [p for p in picked if p is not None]

    assert len(taken) / len(keys) == pytest.approx(0.05, abs=0.005)
    assert {(tuple(p.reasons), p.weight) for p in taken} == {(("uniform_sample",), 20.0)}


def test_the_uniform_draw_is_the_same_on_every_read() -> None:
    assert [in_uniform_sample(f"k{n}", 0.3) for n in range(50)] == [
        in_uniform_sample(f"k{n}", 0.3) for n in range(50)
    ]


def test_weights_move_the_error_towards_the_sampled_items() -> None:
    # a hard item the judge misses by 1.0, and a sampled ordinary one it gets right, weight 20
    mae, bias = weighted_error([0.0, 1.0], [1.0, 1.0], [1.0, 20.0])

    assert mae == pytest.approx(1 / 21) and bias == pytest.approx(-1 / 21)
    assert weighted_error([], [], []) == (None, None)
