"""Isotonic regression by pool-adjacent-violators: the cheapest, model-free alignment of a
judge's expected score with the owners' mean (docs/alignment.md, "A calibration map")."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from judge.core.domain.rubric import CalibrationMap, MapPoint

__all__ = ["CalibrationMap", "MapPoint", "isotonic_map", "pool_adjacent_violators"]


def _pooled(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> list[list[float]]:
    """Blocks ``[judge, owners' sum, weight]``, one per distinct judge score, in order."""
    blocks: list[list[float]] = []
    for value in np.unique(x):
        at = y[x == value]
        blocks.append([float(value), float(at.sum()), float(at.size)])
    return blocks


def pool_adjacent_violators(blocks: Sequence[Sequence[float]]) -> list[list[float]]:
    """Merge neighbouring blocks while a block's mean falls below the one before it; each
    merged block keeps the weighted mean of its judge scores (the knot)."""
    out: list[list[float]] = []
    for judge, total, weight in blocks:
        out.append([judge * weight, total, weight])
        while len(out) > 1 and out[-2][1] / out[-2][2] > out[-1][1] / out[-1][2]:
            last = out.pop()
            out[-1] = [a + b for a, b in zip(out[-1], last, strict=True)]
    return [[jw / w, total / w, w] for jw, total, w in out]


def isotonic_map(judge: npt.ArrayLike, owners: npt.ArrayLike) -> CalibrationMap | None:
    """The least-squares non-decreasing fit of ``owners`` on ``judge`` over the pairs both
    sides scored; None when there is no pair."""
    x, y = np.asarray(judge, dtype=np.float64), np.asarray(owners, dtype=np.float64)
    keep = ~(np.isnan(x) | np.isnan(y))
    if not keep.any():
        return None
    fitted = pool_adjacent_violators(_pooled(x[keep], y[keep]))
    points = [MapPoint(judge=round(j, 6), owners=round(o, 6)) for j, o, _ in fitted]
    return CalibrationMap(points=points)
