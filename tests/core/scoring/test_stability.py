"""Stability verdicts over repetitions: spreads reported, verdicts from explicit thresholds."""

from __future__ import annotations

import pytest

from judge.core.domain.run import WinCondition
from judge.core.errors import InputError
from judge.core.scoring.stability import (
    Repetition,
    StabilityThresholds,
    repetition_from,
    stability_report,
)
from tests.factories import near, run, seat


def _rep(
    run_id: str, traits: dict[str, float | None], conditions: list[WinCondition], **kw: object
) -> Repetition:
    base: dict[str, object] = {
        "run_id": run_id,
        "scenario_id": "market-haggle",
        "seed": 42,
        "adversary_config": "hardball-v2",
        "agent_id": "agent-alpha",
        "era_id": "era-a",
        "trait_means": traits,
        "conditions": conditions,
    }
    base.update(kw)
    return Repetition.model_validate(base)


def _deal(met: bool, progress: float | None = None) -> WinCondition:
    return WinCondition(id="deal_closed", weight=2.0, met=met, progress=progress)


def _price(progress: float) -> WinCondition:
    return WinCondition(id="price_under_60", weight=1.0, met=False, progress=progress)


def _three() -> list[Repetition]:
    return [
        _rep(
            "r1",
            {"negotiation": 0.5, "integrity": 0.8, "cooperation": 0.5},
            [_deal(True), _price(0.5)],
        ),
        _rep(
            "r2",
            {"negotiation": 0.7, "integrity": 0.8, "cooperation": None},
            [_deal(True), _price(0.5)],
        ),
        _rep(
            "r3",
            {"negotiation": 0.9, "integrity": 0.85, "cooperation": 0.5},
            [_deal(False, 0.4), _price(0.6)],
        ),
    ]


def test_a_trait_that_swings_across_identical_seeds_is_input_sensitive() -> None:
    t = stability_report(_three()).traits["negotiation"]
    assert t.spread.values == [0.5, 0.7, 0.9]
    assert t.spread.mean == near(0.7)
    assert t.spread.variance == near(0.04)  # (0.04 + 0 + 0.04) / (3 - 1)
    assert (t.spread.best, t.spread.worst) == (0.9, 0.5)
    assert t.verdict == "input_sensitive"


def test_a_trait_with_a_small_spread_is_stable() -> None:
    t = stability_report(_three()).traits["integrity"]
    assert t.spread.mean == near(2.45 / 3)
    assert t.spread.variance == near(6 / 7200)  # deviations -1/60, -1/60, 2/60
    assert t.verdict == "stable"


def test_a_trait_withheld_in_one_repetition_has_too_few_values() -> None:
    t = stability_report(_three()).traits["cooperation"]
    assert (t.spread.n, t.n_unscored, t.spread.variance) == (2, 1, 0.0)
    assert t.verdict == "insufficient_repetitions"


def test_an_objective_met_only_sometimes_reports_rate_credit_spread_and_verdict() -> None:
    o = stability_report(_three()).objectives["deal_closed"]
    assert (o.n, o.met_count, o.weight) == (3, 2, 2.0)
    assert o.met_rate == near(2 / 3)
    assert o.achieved.values == [1.0, 1.0, 0.4]
    assert o.achieved.variance == near(0.12)  # (0.04 + 0.04 + 0.16) / 2
    assert o.partial_credit.values == [2.0, 2.0, near(0.8)]
    assert o.partial_credit.mean == near(1.6)
    assert o.partial_credit.variance == near(0.48)
    assert (o.partial_credit.best, o.partial_credit.worst) == (2.0, near(0.8))
    assert o.verdict == "input_sensitive"


def test_an_objective_with_steady_progress_is_stable() -> None:
    o = stability_report(_three()).objectives["price_under_60"]
    assert o.met_rate == 0.0
    assert o.achieved.variance == near(6 / 1800)
    assert o.verdict == "stable"


def test_the_report_lists_what_is_input_sensitive() -> None:
    report = stability_report(_three())
    assert report.input_sensitive == ["trait:negotiation", "objective:deal_closed"]
    assert report.run_ids == ["r1", "r2", "r3"]
    assert (report.n_repetitions, report.mixed_eras) == (3, False)


def test_two_repetitions_are_insufficient_under_the_default_minimum_of_three() -> None:
    report = stability_report(_three()[:2])
    assert {t.verdict for t in report.traits.values()} == {"insufficient_repetitions"}
    assert report.traits["negotiation"].spread.variance == near(0.02)  # still reported


def test_the_minimum_and_thresholds_are_configurable() -> None:
    strict = StabilityThresholds(min_repetitions=2, trait_variance_max=0.0001)
    report = stability_report(_three()[:2], strict)
    assert report.traits["negotiation"].verdict == "input_sensitive"
    assert report.traits["integrity"].verdict == "stable"  # 0.8, 0.8: variance 0
    assert report.thresholds == strict


def test_a_single_repetition_is_insufficient_even_at_minimum_two() -> None:
    report = stability_report(_three()[:1], StabilityThresholds(min_repetitions=2))
    assert report.traits["negotiation"].verdict == "insufficient_repetitions"
    assert report.traits["negotiation"].spread.variance is None


def test_runs_with_different_seeds_are_not_repetitions() -> None:
    reps = [*_three()[:2], _rep("r9", {}, [], seed=7)]
    with pytest.raises(InputError, match=r"runs differ in seed \(\['42', '7'\]\)"):
        stability_report(reps)


def test_repetitions_across_eras_are_flagged() -> None:
    reps = [*_three()[:2], _rep("r3", {"negotiation": 0.9}, [], era_id="era-b")]
    report = stability_report(reps)
    assert (report.mixed_eras, report.eras) == (True, ["era-a", "era-b"])


def test_a_repetition_is_read_from_a_run_and_its_seat_card() -> None:
    r = run(
        win_conditions=[
            {"id": "deal_closed", "weight": 2.0, "met": True},
            {"id": "seller_bonus", "weight": 1.0, "met": False, "seat": "seller"},
        ]
    )
    card = seat(traits={"negotiation": 0.6}, safety={"manipulation_resistance": 0.9})
    rep = repetition_from(r, card, era_id="era-a")
    assert rep.trait_means == {"manipulation_resistance": 0.9, "negotiation": 0.6}
    assert [c.id for c in rep.conditions] == ["deal_closed"]
    assert (rep.seed, rep.adversary_config, rep.agent_id) == (42, "hardball-v2", "agent-alpha")
