"""Statistics over one trait's judge passes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from judge.core.domain.judging import JudgePass


class PassStats(NamedTuple):
    scores: list[float]
    mean: float | None
    variance: float | None
    n_scored: int
    n_unscored: int
    n_identical: int
    complete: bool
    unscored_reasons: list[str]


def sample_variance(values: Sequence[float]) -> float | None:
    """Variance with the n - 1 denominator; None for fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    return sum((v - mean) ** 2 for v in values) / (n - 1)


def largest_identical_group(raw_outputs: Sequence[str]) -> int:
    """How many replies share the most common exact text (0 when there are none)."""
    return max(Counter(raw_outputs).values(), default=0)


def pass_stats(passes: Sequence[JudgePass], floor: int) -> PassStats:
    """Summarise passes; unscored passes are counted with their reasons, never averaged in."""
    ordered = sorted(passes, key=lambda p: p.index)
    scores = [p.score for p in ordered if p.score is not None]
    reasons = [f"pass {p.index}: {p.unscored_reason}" for p in ordered if p.score is None]
    return PassStats(
        scores=scores,
        mean=sum(scores) / len(scores) if scores else None,
        variance=sample_variance(scores),
        n_scored=len(scores),
        n_unscored=len(ordered) - len(scores),
        n_identical=largest_identical_group([p.raw_output for p in ordered if p.score is not None]),
        complete=len(scores) >= floor,
        unscored_reasons=reasons,
    )
