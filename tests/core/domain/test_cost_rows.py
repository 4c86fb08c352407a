"""The traits table's cost columns (docs/export.md): the seat's and the run's tokens and
dollars beside the run's estimate; dollars empty, never 0, where there was no price."""

from __future__ import annotations

from judge.core.domain.cost import Cost, CostEstimate
from judge.core.domain.rows import TRAIT_COLUMNS
from tests.factories import scorecard, seat


def cost(usd: float | None, tokens: int, estimate: CostEstimate | None = None) -> Cost:
    return Cost(
        n_passes=5,
        n_attempts=5,
        prompt_tokens=tokens - 100,
        cached_prompt_tokens=0,
        completion_tokens=100,
        cost_usd=usd,
        estimate=estimate,
    )


def test_each_trait_row_carries_its_seats_and_runs_cost_and_the_estimate() -> None:
    estimate = CostEstimate(n_passes=10, prompt_tokens=4000, completion_tokens=1600, cost_usd=0.05)
    buyer = seat(traits={"negotiation": 0.5}).model_copy(update={"cost": cost(0.01, 1000)})
    card = scorecard("r1", buyer).model_copy(update={"cost": cost(0.03, 3000, estimate)})
    (row,) = card.to_rows()
    assert list(row)[-6:] == list(TRAIT_COLUMNS[-6:])
    assert [row[c] for c in TRAIT_COLUMNS[-6:]] == [1000, 0.01, 3000, 0.03, 5600, 0.05]


def test_an_unpriced_run_leaves_its_dollar_cells_empty() -> None:
    buyer = seat(traits={"negotiation": 0.5}).model_copy(update={"cost": cost(None, 1000)})
    card = scorecard("r1", buyer).model_copy(update={"cost": cost(None, 1000)})
    (row,) = card.to_rows()
    assert (row["seat_cost_usd"], row["run_cost_usd"], row["run_estimate_usd"]) == (None,) * 3
    assert row["seat_tokens"] == 1000
