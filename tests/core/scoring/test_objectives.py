import pytest

from judge.core.domain.run import WinCondition
from judge.core.scoring.objectives import (
    conditions_for_seat,
    objective_met_rate,
    objectives,
    partial_credit,
)
from tests.helpers import example


def test_partial_credit_of_the_spec_example() -> None:
    pc = partial_credit(example("haggle.json").win_conditions)
    assert pc.per_condition == {"deal_closed": 2.0, "price_under_60": pytest.approx(0.4)}
    assert pc.total == pytest.approx(2.4)
    assert pc.max_possible == 3.0


def test_met_semantics_stay_binary_beside_partial_credit() -> None:
    o = objectives(example("haggle.json").win_conditions)
    assert (o.met_count, o.total_count, o.objective_met_rate) == (1, 2, 0.5)
    assert o.conditions == {"deal_closed": True, "price_under_60": False}


def test_unmet_condition_without_progress_earns_nothing() -> None:
    pc = partial_credit([WinCondition(id="a", weight=3.0, met=False)])
    assert pc.per_condition == {"a": 0.0} and pc.max_possible == 3.0


def test_seat_conditions_include_shared_ones() -> None:
    run = example("two_seats_partial_credit.json")
    north = conditions_for_seat(run.win_conditions, "north")
    assert [c.id for c in north] == ["deal_reached", "north_gets_water", "north_points_over_24"]
    pc = partial_credit(north)
    assert pc.total == pytest.approx(1.0 + 2.0 * 0.67 + 1.0)
    assert pc.max_possible == 4.0


def test_no_conditions_gives_no_rate() -> None:
    o = objectives([])
    assert o.objective_met_rate is None and o.partial_credit.total == 0.0


def test_met_rate_across_runs_pools_conditions() -> None:
    a = objectives([WinCondition(id="x", met=True)])
    b = objectives(
        [
            WinCondition(id="x", met=False),
            WinCondition(id="y", met=False),
            WinCondition(id="z", met=True),
        ]
    )
    assert objective_met_rate([a, b]) == pytest.approx(2 / 4)
