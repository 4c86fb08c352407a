"""A matched comparison of two agents over the same scenarios, seeds and adversaries."""

from __future__ import annotations

from typing import Literal

from judge.core.domain.checks import OutcomeName
from judge.core.domain.outputs import Output

Side = Literal["a", "b"]
Measure = Literal["reward", "check_reward"]


class ComparedPair(Output):
    """Two runs of one matched world: same scenario, seed and adversary configuration.

    Attributes:
        difference: A's measure minus B's; None when either run is not scored.
        better: which side did better on the measure, ``tie``, or None when not comparable.
    """

    scenario_id: str
    seed: int
    adversary_config: str | None
    run_a: str
    run_b: str
    outcome_a: OutcomeName
    outcome_b: OutcomeName
    value_a: float | None
    value_b: float | None
    difference: float | None
    better: Literal["a", "b", "tie"] | None


class UnpairedRun(Output):
    """A run that found no partner; listed, never silently dropped."""

    side: Side
    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None
    reason: str


class PairedTest(Output):
    """Whether one agent is better across the scored pairs.

    Attributes:
        method: ``wilcoxon`` (signed-rank), ``sign_test`` (exact binomial on wins, used when
            tied pairs are at least half), or ``none`` when no pair differs.
        better: the side that is better at level ``alpha``; None when the test cannot say.
    """

    measure: Measure
    method: Literal["wilcoxon", "sign_test", "none"]
    n_pairs: int
    a_better: int
    b_better: int
    ties: int
    mean_difference: float | None
    statistic: float | None
    p_value: float | None
    alpha: float
    better: Side | None
    detail: str


class AgentComparison(Output):
    """Per-pair differences, the paired test, and every run that could not be paired; pairs
    with an unscored run stay in ``pairs`` without a difference, out of the test."""

    label_a: str
    label_b: str
    pairs: list[ComparedPair]
    unscoreable_pairs: list[tuple[str, str]]
    unpaired: list[UnpairedRun]
    test: PairedTest
