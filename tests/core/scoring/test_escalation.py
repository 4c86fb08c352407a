"""Selective escalation's rules: the confidence formula, anchor agreement, the run split, the
threshold that reaches a target only where confidence tracks accuracy, and who decides."""

from __future__ import annotations

import math

import pytest

from judge.core.domain.escalation import LOW_CONFIDENCE, TraitEscalation
from judge.core.domain.judging import JudgePass, JudgeStats, TraitResult
from judge.core.scoring import escalation as rules
from judge.core.scoring.escalation import JudgedItem


def _pass(index: int, score: float, model: str, entropy: float | None = None) -> JudgePass:
    return JudgePass(
        trait="negotiation",
        index=index,
        score=score,
        model=model,
        parse_status="ok",
        score_entropy_bits=entropy,
    )


def result(by_judge: dict[str, list[float]], entropy: float | None = None) -> TraitResult:
    passes, judges = [], []
    for model, scores in by_judge.items():
        start = len(passes)
        passes += [_pass(start + n, s, model, entropy) for n, s in enumerate(scores)]
        judges.append(
            JudgeStats(
                model=model,
                pass_scores=scores,
                mean=sum(scores) / len(scores),
                variance=None,
                n_scored=len(scores),
                n_unscored=0,
            )
        )
    scores = [p.score for p in passes if p.score is not None]
    return TraitResult(
        trait="negotiation",
        pack="capability",
        pass_scores=scores,
        mean=sum(scores) / len(scores),
        variance=None,
        n_passes=len(scores),
        n_scored=len(scores),
        n_unscored=0,
        n_identical=1,
        floor=1,
        complete=True,
        rubric_version=1,
        rubric_hash="h",
        rubric_source="builtin",
        rubric={},
        passes=passes,
        judges=judges if len(judges) > 1 else [],
    )


def test_confidence_is_one_minus_the_worst_of_spread_entropy_and_panel_range() -> None:
    one = rules.result_confidence(result({"a": [0.6, 0.8, 0.7]}))
    with_entropy = rules.result_confidence(result({"a": [0.7, 0.7]}, entropy=math.log2(11) / 2))
    panel = rules.result_confidence(result({"a": [1.0, 1.0], "b": [0.4, 0.4]}))

    assert one.value == pytest.approx(0.8) and one.entropy is None and one.panel is None
    assert with_entropy.value == pytest.approx(0.5) and with_entropy.spread == 0.0
    assert panel.panel == pytest.approx(0.6) and panel.value == pytest.approx(0.4)


def test_a_verdict_with_nothing_to_say_how_sure_it_is_has_confidence_zero() -> None:
    assert rules.result_confidence(result({"a": [0.9]})).value == 0.0


def test_anchor_agreement_puts_judge_and_owners_on_the_nearest_anchor() -> None:
    assert rules.agrees(0.7, 0.5) and rules.agrees(0.8, 1.0) and rules.agrees(0.2, 0.0)
    assert not rules.agrees(0.8, 0.5) and not rules.agrees(0.5, 0.0)
    assert rules.on_anchor(0.25) == 0.5 and rules.on_anchor(0.75) == 1.0


FIVE = (0.0, 0.25, 0.5, 0.75, 1.0)


def test_a_sets_scale_points_are_the_anchors_agreement_is_read_on() -> None:
    assert rules.on_anchor(0.7, FIVE) == 0.75 and rules.on_anchor(0.125, FIVE) == 0.25
    assert rules.agrees(0.8, 1.0) and not rules.agrees(0.8, 1.0, FIVE)
    assert rules.agrees(0.3, 0.2, FIVE) and not rules.agrees(0.3, 0.5, FIVE)
    assert JudgedItem("r", "a", 0.8, 1.0, 1.0).agreed
    assert not JudgedItem("r", "a", 0.8, 1.0, 1.0, FIVE).agreed


def test_the_confidence_of_bare_passes_reads_spread_entropy_and_each_judges_mean() -> None:
    half = math.log2(11) / 2
    one = rules.passes_confidence([_pass(0, 0.6, "a"), _pass(1, 0.8, "a"), _pass(2, 0.7, "a")])
    grid = rules.passes_confidence([_pass(0, 0.7, "a", entropy=half)])
    panel = [_pass(0, 1.0, "a"), _pass(1, 1.0, "a"), _pass(2, 0.4, "b"), _pass(3, 0.4, "b")]
    unscored = _pass(1, 0.0, "a").model_copy(update={"score": None})

    assert one == rules.result_confidence(result({"a": [0.6, 0.8, 0.7]}))
    assert grid.value == pytest.approx(0.5) and grid.spread is None
    assert rules.passes_confidence(panel) == rules.result_confidence(
        result({"a": [1.0, 1.0], "b": [0.4, 0.4]})
    )
    assert rules.passes_confidence([_pass(0, 0.9, "a"), unscored]).value == 0.0


def test_the_split_keeps_every_item_of_a_run_on_one_side_and_depends_on_the_seed() -> None:
    items = [JudgedItem(f"r{n // 3}", f"s{n}", 1.0, 1.0, 1.0) for n in range(300)]
    split = rules.split_by_run(items, seed=7)
    chosen = {i.run_id for i in split.selection}

    assert chosen.isdisjoint({i.run_id for i in split.held_out})
    assert 30 < len(chosen) < 70  # about half of the 100 runs
    assert chosen != {i.run_id for i in rules.split_by_run(items, seed=8).selection}


def tracking(n: int) -> list[JudgedItem]:
    """Sure items (confidence 1 or 0.9) are right; unsure ones (0.2) are wrong."""
    out = []
    for k in range(n):
        sure = [1.0, 0.9, 0.2][k % 3]
        owners = 1.0 if sure > 0.5 else 0.0
        out.append(JudgedItem(f"r{k}", "bot", 1.0, owners, sure))
    return out


def test_a_confidence_that_tracks_accuracy_keeps_the_right_items_and_reaches_the_target() -> None:
    items = tracking(90)
    chosen = rules.choose_threshold(items, target=0.8, risk=0.1)
    kept = rules.figures(items, chosen.threshold, 0.1)

    assert chosen.threshold == 0.9
    assert kept.coverage == pytest.approx(2 / 3) and kept.agreement == 1.0
    assert kept.lower_bound is not None and kept.lower_bound >= 0.8


def test_a_confidence_that_does_not_track_accuracy_reaches_no_target() -> None:
    items = [
        JudgedItem(f"r{k}", "bot", 1.0, float(k % 2), [1.0, 0.9][k // 2 % 2]) for k in range(90)
    ]
    chosen = rules.choose_threshold(items, target=0.8, risk=0.1)

    assert chosen.threshold is None and chosen.bound < 0.6
    assert rules.figures(items, None, 0.1).coverage == 0.0


def test_too_few_items_for_the_bound_reach_no_target_even_when_all_agree() -> None:
    assert rules.fewest_kept(0.8, 0.1) == 11
    items = [JudgedItem(f"r{k}", "bot", 1.0, 1.0, 1.0) for k in range(10)]

    assert rules.choose_threshold(items, target=0.8, risk=0.1).threshold is None
    assert rules.choose_threshold([*items, items[0]], target=0.8, risk=0.1).threshold == 1.0


def test_the_curve_lists_coverage_and_agreement_from_the_surest_items_down() -> None:
    points = rules.curve(tracking(9))

    assert [(p.threshold, p.n_kept, p.agreement) for p in points] == [
        (1.0, 3, 1.0),
        (0.9, 6, 1.0),
        (0.2, 9, pytest.approx(2 / 3)),
    ]


def stored(threshold: float | None) -> TraitEscalation:
    empty = rules.figures([], threshold, 0.1)
    return TraitEscalation.model_validate(
        {
            "trait": "negotiation",
            "target": 0.8,
            "risk": 0.1,
            "seed": 0,
            "threshold": threshold,
            "reachable": threshold is not None,
            "note": "",
            "selection": empty,
            "held_out": empty,
            "held_out_meets_target": False,
            "curve_selection": [],
            "curve_held_out": [],
            "set_by": "owner:ops",
            "set_at": "2026-12-04T00:00:00Z",
        }
    )


def test_a_sure_verdict_is_decided_by_the_cards_judge() -> None:
    decided = rules.decide("buyer", result({"a": [0.9, 0.9]}), "a", stored(0.8))

    assert (decided.decided_by, decided.score, decided.escalated_to) == ("a", 0.9, None)


def test_an_unsure_panel_verdict_goes_to_the_first_member_sure_of_its_own() -> None:
    split = result({"a": [0.0, 0.6], "b": [1.0, 1.0]})
    decided = rules.decide("buyer", split, "a,b", stored(0.8))

    assert (decided.decided_by, decided.score, decided.escalated_to) == ("b", 1.0, "panel")
    assert decided.confidence.value == 1.0


def test_an_unsure_verdict_no_judge_settles_goes_to_the_owners_with_the_reason() -> None:
    alone = rules.decide("buyer", result({"a": [0.0, 1.0]}), "a", stored(0.8))
    panel = rules.decide("buyer", result({"a": [0.0, 1.0], "b": [0.2, 0.9]}), "a,b", stored(0.8))
    unreachable = rules.decide("buyer", result({"a": [1.0, 1.0]}), "a", stored(None))

    for decided in (alone, panel, unreachable):
        assert (decided.decided_by, decided.score) == ("owners", None)
        assert (decided.escalated_to, decided.reason) == ("owners", LOW_CONFIDENCE)


def test_without_a_target_the_cards_judge_decides_whatever_its_confidence() -> None:
    decided = rules.decide("buyer", result({"a": [0.0, 1.0]}), "a", None)

    assert (decided.decided_by, decided.score, decided.threshold) == ("a", 0.5, None)
