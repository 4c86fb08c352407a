"""The labelling queue's rules (docs/calibration.md, "The queue"): which seat-traits are worth
an owner's label, and with what inclusion probability each was picked. Pure."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import NamedTuple

from judge.core.domain.labels import QueueReason
from judge.core.domain.passes import spread_of


class QueueRules(NamedTuple):
    """When an item is targeted, and how large the uniform sample is."""

    spread_above: float = 0.3
    panel_spread_above: float = 0.3
    thresholds: tuple[float, ...] = (0.5,)
    near: float = 0.1
    rate: float = 0.05


class ItemFigures(NamedTuple):
    """What the queue reads of one seat-trait of a scorecard."""

    key: str
    pass_scores: Sequence[float]
    judge_means: Sequence[float]
    score: float | None
    thresholds: Sequence[float]
    tamper: bool


def in_uniform_sample(key: str, rate: float) -> bool:
    """Whether ``key`` falls in the uniform sample: the first 8 bytes of its sha256, read as
    a fraction of 2**64, below ``rate`` (the same answer on every read)."""
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < rate


def targeted_reasons(item: ItemFigures, rules: QueueRules) -> list[QueueReason]:
    """Why the item teaches most, in a fixed order (empty when it is an ordinary item)."""
    reasons: list[QueueReason] = []
    spread = spread_of(item.pass_scores)
    if spread is not None and spread > rules.spread_above:
        reasons.append("wide_spread")
    panel = spread_of(item.judge_means)
    if panel is not None and len(item.judge_means) > 1 and panel > rules.panel_spread_above:
        reasons.append("panel_disagreement")
    if item.score is not None and any(abs(item.score - t) <= rules.near for t in item.thresholds):
        reasons.append("near_threshold")
    if item.tamper:
        reasons.append("tamper")
    return reasons


class Pick(NamedTuple):
    reasons: list[QueueReason]
    inclusion_probability: float

    @property
    def weight(self) -> float:
        return 1.0 / self.inclusion_probability


def pick(item: ItemFigures, rules: QueueRules) -> Pick | None:
    """The item's place in the queue, or ``None`` when the queue passes it by."""
    reasons = targeted_reasons(item, rules)
    if reasons:
        return Pick(reasons, 1.0)
    if rules.rate > 0 and in_uniform_sample(item.key, rules.rate):
        return Pick(["uniform_sample"], rules.rate)
    return None


def weighted_error(
    judge: Sequence[float], human: Sequence[float], weights: Sequence[float]
) -> tuple[float | None, float | None]:
    """Inverse-probability weighted MAE and bias (judge minus human) over labelled items:
    the population's figures, where the unweighted ones over-represent hard items."""
    total = sum(weights)
    if not judge or total <= 0:
        return None, None
    diffs = [j - h for j, h in zip(judge, human, strict=True)]
    mae = sum(w * abs(d) for w, d in zip(weights, diffs, strict=True)) / total
    bias = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    return mae, bias
