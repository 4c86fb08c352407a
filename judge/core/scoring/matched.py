"""Matched comparison of two agents over the same scenarios, seeds and adversaries
(docs/checks.md, "Matched comparison"). The sign test replaces Wilcoxon when tied pairs are at
least half: it does not pretend that many ties carry rank information.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Literal, NamedTuple

from scipy import stats

from judge.core.domain.checks import StateOutcome
from judge.core.domain.comparison import (
    AgentComparison,
    ComparedPair,
    Measure,
    PairedTest,
    Side,
    UnpairedRun,
)
from judge.core.scoring.identity import run_identity

_EXACT_LIMIT = 50
_PERMUTATION_LIMIT = 13


class Key(NamedTuple):
    """What two runs must share to be paired: the same starting world."""

    scenario_id: str
    seed: int
    adversary_config: str | None


def matched_comparison(
    outcomes_a: Sequence[StateOutcome],
    outcomes_b: Sequence[StateOutcome],
    *,
    label_a: str = "a",
    label_b: str = "b",
    measure: Measure = "reward",
    alpha: float = 0.05,
) -> AgentComparison:
    """Pair two agents' evaluated runs and test, at level ``alpha``, whether one is better."""
    unpaired = [*_unseeded(outcomes_a, "a"), *_unseeded(outcomes_b, "b")]
    groups_a, groups_b = _by_key(outcomes_a), _by_key(outcomes_b)
    pairs: list[ComparedPair] = []
    for key in sorted(set(groups_a) | set(groups_b), key=_sort_key):
        runs_a, runs_b = groups_a.get(key, []), groups_b.get(key, [])
        pairs += [_pair(key, a, b, measure) for a, b in zip(runs_a, runs_b, strict=False)]
        unpaired += _leftovers(runs_a, runs_b, label_a, label_b)
    return AgentComparison(
        label_a=label_a,
        label_b=label_b,
        pairs=pairs,
        unscoreable_pairs=[(p.run_a, p.run_b) for p in pairs if p.difference is None],
        unpaired=unpaired,
        test=paired_test([p.difference for p in pairs if p.difference is not None], measure, alpha),
    )


def _sort_key(key: Key) -> tuple[str, int, str]:
    return key.scenario_id, key.seed, key.adversary_config or ""


def _by_key(outcomes: Sequence[StateOutcome]) -> dict[Key, list[StateOutcome]]:
    groups: dict[Key, list[StateOutcome]] = defaultdict(list)
    for outcome in sorted(outcomes, key=lambda o: o.run_id):
        if outcome.seed is not None:
            adversary = outcome.adversary_config or None  # empty and absent: the same world
            groups[Key(outcome.scenario_id, outcome.seed, adversary)].append(outcome)
    return groups


def _unseeded(outcomes: Sequence[StateOutcome], side: Side) -> list[UnpairedRun]:
    reason = "the run has no seed, so no run can be matched with it"
    return [_unpaired(o, side, reason) for o in outcomes if o.seed is None]


def _leftovers(
    runs_a: list[StateOutcome], runs_b: list[StateOutcome], label_a: str, label_b: str
) -> list[UnpairedRun]:
    if len(runs_a) == len(runs_b):
        return []
    side: Side = "a" if len(runs_a) > len(runs_b) else "b"
    extra = runs_a[len(runs_b) :] if side == "a" else runs_b[len(runs_a) :]
    other = label_b if side == "a" else label_a
    mine, theirs = max(len(runs_a), len(runs_b)), min(len(runs_a), len(runs_b))
    reason = (
        f"{other} has {theirs} run(s) with this scenario, seed and adversary config "
        f"and this side has {mine}; the extra run(s) have no partner"
    )
    return [_unpaired(o, side, reason) for o in extra]


def _unpaired(outcome: StateOutcome, side: Side, reason: str) -> UnpairedRun:
    return UnpairedRun(side=side, **run_identity(outcome), reason=reason)


def _value(outcome: StateOutcome, measure: Measure) -> float | None:
    value = outcome.reward if measure == "reward" else outcome.check_reward
    return None if value is None else float(value)


class _Difference(NamedTuple):
    value_a: float | None
    value_b: float | None
    difference: float | None
    better: Literal["a", "b", "tie"] | None


def _difference(value_a: float | None, value_b: float | None) -> _Difference:
    """A's value minus B's and which side it favours; None for both when either is missing."""
    if value_a is None or value_b is None:
        return _Difference(value_a, value_b, None, None)
    difference = value_a - value_b
    better: Literal["a", "b", "tie"] = "a" if difference > 0 else "b" if difference < 0 else "tie"
    return _Difference(value_a, value_b, difference, better)


def _pair(key: Key, a: StateOutcome, b: StateOutcome, measure: Measure) -> ComparedPair:
    return ComparedPair(
        **key._asdict(),
        run_a=a.run_id,
        run_b=b.run_id,
        outcome_a=a.outcome,
        outcome_b=b.outcome,
        **_difference(_value(a, measure), _value(b, measure))._asdict(),
    )


def paired_test(differences: Sequence[float], measure: Measure, alpha: float) -> PairedTest:
    """Test whether the differences (A minus B) lean one way: Wilcoxon signed-rank on the
    non-zero ones (exact where it can be), or the sign test when ties are half or more."""
    a_better = sum(1 for d in differences if d > 0)
    b_better = sum(1 for d in differences if d < 0)
    ties = len(differences) - a_better - b_better
    base = {
        "measure": measure,
        "n_pairs": len(differences),
        "a_better": a_better,
        "b_better": b_better,
        "ties": ties,
        "mean_difference": sum(differences) / len(differences) if differences else None,
        "alpha": alpha,
    }
    if a_better + b_better == 0:
        detail = "no scored pair" if not differences else "every scored pair tied"
        return PairedTest(
            **base, method="none", statistic=None, p_value=None, better=None, detail=detail
        )
    method, statistic, p_value, detail = _run_test(differences, a_better, b_better, ties)
    better: Side | None = ("a" if a_better > b_better else "b") if p_value < alpha else None
    return PairedTest(
        **base, method=method, statistic=statistic, p_value=p_value, better=better, detail=detail
    )


def _run_test(
    differences: Sequence[float], a_better: int, b_better: int, ties: int
) -> tuple[Literal["wilcoxon", "sign_test"], float, float, str]:
    """The sign test when ties are at least half of the pairs, else Wilcoxon signed-rank."""
    if 2 * ties >= len(differences):
        return ("sign_test", *_sign_test(a_better, b_better, ties, len(differences)))
    return ("wilcoxon", *_wilcoxon([d for d in differences if d != 0], ties))


def _sign_test(a_better: int, b_better: int, ties: int, n: int) -> tuple[float, float, str]:
    p_value = float(stats.binomtest(a_better, a_better + b_better, 0.5).pvalue)
    detail = (
        f"sign test (exact binomial) on {a_better + b_better} untied pairs: "
        f"{ties} of {n} pairs tied, too many for ranks to mean much"
    )
    return float(a_better), p_value, detail


def _wilcoxon(nonzero: list[float], ties: int) -> tuple[float, float, str]:
    sizes = [abs(d) for d in nonzero]
    if len(set(sizes)) == len(sizes) and len(sizes) <= _EXACT_LIMIT:
        method: str | stats.PermutationMethod = "exact"
        how = "exact"
    elif len(sizes) <= _PERMUTATION_LIMIT:
        method, how = stats.PermutationMethod(), "exact over all sign flips"
    else:
        method, how = "approx", "normal approximation"
    result = stats.wilcoxon(nonzero, method=method)
    detail = (
        f"Wilcoxon signed-rank ({how}) on {len(nonzero)} untied pairs; {ties} tied pair(s) left out"
    )
    return float(result.statistic), float(result.pvalue), detail
