"""Pairwise verdicts over both orders, and a judge's position bias over many pairs (the rules:
docs/scoring.md, "Pairwise judging")."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from scipy import stats

from judge.core.domain.interval import Interval
from judge.core.domain.pairwise import (
    ORDERS,
    Order,
    OrderVerdict,
    PairOutcome,
    PairVerdict,
    PairwisePass,
    PositionBias,
    Winner,
)
from judge.core.domain.run import Run


def order_verdict(passes: Sequence[PairwisePass], order: Order, floor: int) -> OrderVerdict:
    """The verdict of one order from its passes (the others are ignored)."""
    mine = [p for p in passes if p.order == order]
    votes = Counter(p.winner for p in mine if p.winner is not None)
    n_scored = sum(votes.values())
    return OrderVerdict(
        order=order,
        winner=_most_voted(votes) if n_scored >= floor else None,
        first_is="a" if order == "ab" else "b",
        votes_a=votes["a"],
        votes_b=votes["b"],
        votes_neither=votes["neither"],
        n_passes=len(mine),
        n_scored=n_scored,
        floor=floor,
        complete=n_scored >= floor,
    )


def _most_voted(votes: Counter[Winner]) -> Winner:
    """The answer with the most votes; a tied vote is ``neither``."""
    top = votes.most_common()
    return "neither" if len(top) > 1 and top[0][1] == top[1][1] else top[0][0]


class PairResult(NamedTuple):
    orders: list[OrderVerdict]
    outcome: PairOutcome | None
    flipped: bool | None


def pair_result(passes: Sequence[PairwisePass], floor: int) -> PairResult:
    """Both orders' verdicts and the pair's outcome over them (the floor applies per order)."""
    orders = [order_verdict(passes, order, floor) for order in ORDERS]
    first, second = orders[0].winner, orders[1].winner
    if first is None or second is None:
        return PairResult(orders, None, None)
    outcome: PairOutcome = first if first == second and first != "neither" else "tie"
    return PairResult(orders, outcome, first != second)


def wilson(successes: int, trials: int, confidence: float = 0.95) -> Interval | None:
    """Wilson score interval of a proportion; None without trials."""
    if trials == 0:
        return None
    ci = stats.binomtest(successes, trials).proportion_ci(confidence, method="wilson")
    return Interval(
        low=float(ci.low), high=float(ci.high), level=confidence, method=f"wilson {confidence:.0%}"
    )


def _named_first(verdicts: Iterable[PairVerdict]) -> tuple[int, int]:
    named = first = 0
    for verdict in verdicts:
        for order in verdict.orders:
            if order.winner in ("a", "b"):
                named += 1
                first += order.winner == order.first_is
    return named, first


def position_bias(verdicts: Sequence[PairVerdict], judge_model: str, trait: str) -> PositionBias:
    """Flip rate and first-position rate of one judge on one trait, with Wilson intervals."""
    mine = [v for v in verdicts if v.judge_model == judge_model and v.trait == trait]
    complete = [v for v in mine if v.flipped is not None]
    decisive = [v for v in complete if any(o.winner in ("a", "b") for o in v.orders)]
    flipped = sum(1 for v in decisive if v.flipped)
    named, first = _named_first(complete)
    return PositionBias(
        judge_model=judge_model,
        trait=trait,
        n_pairs=len(complete),
        n_decisive=len(decisive),
        n_flipped=flipped,
        flip_rate=flipped / len(decisive) if decisive else None,
        flip_interval=wilson(flipped, len(decisive)),
        n_named=named,
        n_first=first,
        first_position_rate=first / named if named else None,
        first_position_interval=wilson(first, named),
    )


def position_biases(verdicts: Sequence[PairVerdict]) -> list[PositionBias]:
    """:func:`position_bias` for every (judge model, trait) among the verdicts."""
    keys = sorted({(v.judge_model, v.trait) for v in verdicts})
    return [position_bias(verdicts, model, trait) for model, trait in keys]


class RunMatch(NamedTuple):
    a: Run
    b: Run


class Leftover(NamedTuple):
    side: Literal["a", "b"]
    run: Run
    reason: str


class Matching(NamedTuple):
    pairs: list[RunMatch]
    leftovers: list[Leftover]


_NO_SEED = "the run has no seed, so no run can be matched with it"
_NO_PARTNER = "no run of the other side is left with this scenario, seed and adversary config"


def match_runs(runs_a: Sequence[Run], runs_b: Sequence[Run]) -> Matching:
    """Pair runs by (scenario, seed, adversary config), the i-th of A by run id with the i-th
    of B, as the matched comparison does; runs without a seed or a partner are left over."""
    groups: dict[tuple[str, int, str], tuple[list[Run], list[Run]]] = defaultdict(lambda: ([], []))
    leftovers: list[Leftover] = []
    for side, runs in (("a", runs_a), ("b", runs_b)):
        for run in sorted(runs, key=lambda r: r.run_id):
            if run.seed is None:
                leftovers.append(Leftover("a" if side == "a" else "b", run, _NO_SEED))
                continue
            key = (run.scenario_id, run.seed, run.adversary_config or "")
            groups[key][0 if side == "a" else 1].append(run)
    pairs: list[RunMatch] = []
    for key in sorted(groups):
        side_a, side_b = groups[key]
        pairs += [RunMatch(a, b) for a, b in zip(side_a, side_b, strict=False)]
        leftovers += [Leftover("a", r, _NO_PARTNER) for r in side_a[len(side_b) :]]
        leftovers += [Leftover("b", r, _NO_PARTNER) for r in side_b[len(side_a) :]]
    return Matching(pairs, leftovers)
