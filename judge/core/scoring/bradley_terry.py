"""Bradley-Terry ratings over pair outcomes, with seeded bootstrap intervals (docs/scoring.md,
"Pairwise judging"). A tie is half a win for each side: Davidson's tie parameter needs more
ties than our pairs hold to be estimated well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy import optimize

from judge.core.domain.pairwise import PairOutcome, Rating

#: How ties are counted; shown with every fit.
TIE_RULE = "a tie is half a win for each side; every agent plays one virtual tie against 0"
_EQUAL = 1e-9


class Game(NamedTuple):
    """One pair's outcome between two agents."""

    agent_a: str
    agent_b: str
    outcome: PairOutcome


class Tally(NamedTuple):
    wins: int
    losses: int
    ties: int


def _agents(games: Sequence[Game]) -> list[str]:
    return sorted({g.agent_a for g in games} | {g.agent_b for g in games})


def _scores(games: Sequence[Game], index: dict[str, int]) -> NDArray[np.float64]:
    """Rows (i, j, credit of i): one per game, credit 1, 0 or 0.5."""
    credit = {"a": 1.0, "b": 0.0, "tie": 0.5}
    return np.array(
        [(index[g.agent_a], index[g.agent_b], credit[g.outcome]) for g in games], dtype=np.float64
    ).reshape(-1, 3)


def _fit(rows: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    i, j, s = rows[:, 0].astype(int), rows[:, 1].astype(int), rows[:, 2]

    def loss(r: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        p = 1.0 / (1.0 + np.exp(r[j] - r[i]))
        prior = 1.0 / (1.0 + np.exp(-r))
        value = -np.sum(s * np.log(p) + (1 - s) * np.log1p(-p))
        value -= np.sum(0.5 * np.log(prior) + 0.5 * np.log1p(-prior))
        grad = np.zeros(n)
        np.add.at(grad, i, -(s - p))
        np.add.at(grad, j, s - p)
        grad -= 0.5 - prior
        return float(value), grad

    result = optimize.minimize(loss, np.zeros(n), jac=True, method="L-BFGS-B")
    ratings: NDArray[np.float64] = result.x - result.x.mean()
    return ratings


def bradley_terry(games: Sequence[Game]) -> dict[str, float]:
    """The ratings (mean 0) of every agent that played a game."""
    agents = _agents(games)
    if not agents:
        return {}
    fitted = _fit(_scores(games, {a: n for n, a in enumerate(agents)}), len(agents))
    return {agent: float(value) for agent, value in zip(agents, fitted, strict=True)}


def bootstrap_intervals(
    games: Sequence[Game], *, n_bootstrap: int = 500, confidence: float = 0.95, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """Percentile intervals of each agent's rating over resampled sets of games; none when no
    game was decided (every pair tied: resampling ties can only give [0, 0], which would read
    as a certainty the games do not hold)."""
    agents = _agents(games)
    if not agents or n_bootstrap < 1 or all(g.outcome == "tie" for g in games):
        return {}
    rows = _scores(games, {a: n for n, a in enumerate(agents)})
    rng = np.random.default_rng(seed)
    draws = np.array(
        [_fit(rows[rng.integers(0, len(rows), len(rows))], len(agents)) for _ in range(n_bootstrap)]
    )
    tail = (1.0 - confidence) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail], axis=0)
    return {a: (float(low[n]), float(high[n])) for n, a in enumerate(agents)}


def tallies(games: Sequence[Game]) -> dict[str, Tally]:
    """Wins, losses and ties of every agent."""
    counts: dict[str, list[int]] = {}
    for g in games:
        for agent, side in ((g.agent_a, "a"), (g.agent_b, "b")):
            row = counts.setdefault(agent, [0, 0, 0])
            slot = 2 if g.outcome == "tie" else 0 if g.outcome == side else 1
            row[slot] += 1
    return {agent: Tally(*row) for agent, row in counts.items()}


def _ranks(ratings: dict[str, float]) -> dict[str, int]:
    """Competition ranks (1, 1, 3, ...): equal ratings share a rank."""
    ordered = sorted(ratings.values(), reverse=True)
    return {a: 1 + sum(1 for v in ordered if v > r + _EQUAL) for a, r in ratings.items()}


def rate(
    games: Sequence[Game],
    *,
    n_bootstrap: int = 500,
    confidence: float = 0.95,
    seed: int = 0,
    ranked: bool = True,
) -> list[Rating]:
    """Ratings with intervals and tallies, best first; ranks only when ``ranked``."""
    ratings = bradley_terry(games)
    intervals = bootstrap_intervals(
        games, n_bootstrap=n_bootstrap, confidence=confidence, seed=seed
    )
    counts = tallies(games)
    ranks = _ranks(ratings)
    rows = [
        _rating(agent, value, ranks[agent] if ranked else None, intervals.get(agent), counts[agent])
        for agent, value in ratings.items()
    ]
    return sorted(rows, key=lambda r: (-r.rating, r.agent_id))


def _rating(
    agent: str, value: float, rank: int | None, interval: tuple[float, float] | None, tally: Tally
) -> Rating:
    return Rating(
        rank=rank,
        agent_id=agent,
        rating=value,
        low=interval[0] if interval else None,
        high=interval[1] if interval else None,
        wins=tally.wins,
        losses=tally.losses,
        ties=tally.ties,
        n_pairs=sum(tally),
    )
