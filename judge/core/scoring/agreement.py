"""Agreement statistics between a judge and human raters (docs/calibration.md). Pure numpy/scipy.

Scores live on 0..1; a ratings table is ``items x raters``, ``NaN`` for a missing rating. An
undefined statistic (a constant column, under two items) is ``None``, never 0 or ``NaN``:
"cannot tell" is not "no agreement". Bootstraps are seeded; spreads use the sample sd (n - 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy import stats

from judge.core.domain.interval import Interval

Array = npt.NDArray[np.float64]
Level = Literal["nominal", "ordinal", "interval"]
Statistic = Callable[[Array, Array], "float | None"]
LEVELS: tuple[Level, ...] = ("nominal", "ordinal", "interval")


class LeaveOneOut(NamedTuple):
    """Each rater against the mean of the others: the human ceiling for a statistic."""

    per_rater: list[float | None]
    mean: float | None
    median: float | None
    n_raters: int


class PassSpread(NamedTuple):
    """How much a judge's passes over one item differ from one another."""

    mean_sd: float | None
    max_sd: float | None
    mean_range: float | None
    items_identical: int
    items: int


class DenoisingGain(NamedTuple):
    """Agreement of the mean of passes against that of a single pass (mean over pass indices)."""

    single_pass: float | None
    averaged: float | None
    gain: float | None


def as_array(values: npt.ArrayLike) -> Array:
    """Float array with ``None`` turned into ``NaN``."""
    if isinstance(values, np.ndarray):
        return values.astype(np.float64)
    return np.array(values, dtype=np.float64)


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def paired(x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[Array, Array]:
    """The items both sides scored (drops pairs with a missing side)."""
    a, b = as_array(x), as_array(y)
    if a.shape != b.shape:
        raise ValueError(f"paired scores need equal lengths, got {a.shape} and {b.shape}")
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep]


def _correlation(x: npt.ArrayLike, y: npt.ArrayLike, fn: Callable[..., object]) -> float | None:
    a, b = paired(x, y)
    if a.size < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    result = fn(a, b)
    return _finite(float(result.statistic))  # type: ignore[attr-defined]


def spearman(x: npt.ArrayLike, y: npt.ArrayLike) -> float | None:
    """Spearman's rho over the paired items; ``None`` when either side is constant."""
    return _correlation(x, y, stats.spearmanr)


def kendall_tau_b(x: npt.ArrayLike, y: npt.ArrayLike) -> float | None:
    """Kendall's tau-b (ties corrected on both sides); ``None`` when either side is constant."""
    return _correlation(x, y, lambda a, b: stats.kendalltau(a, b, variant="b"))


def mean_absolute_error(judge: npt.ArrayLike, human: npt.ArrayLike) -> float | None:
    """Mean |judge - human| on 0..1 over the paired items."""
    a, b = paired(judge, human)
    return float(np.mean(np.abs(a - b))) if a.size else None


def bias(judge: npt.ArrayLike, human: npt.ArrayLike) -> float | None:
    """Mean (judge - human): positive means the judge scores higher than the humans."""
    a, b = paired(judge, human)
    return float(np.mean(a - b)) if a.size else None


def bootstrap_interval(
    statistic: Statistic,
    x: npt.ArrayLike,
    y: npt.ArrayLike,
    *,
    n_resamples: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> Interval:
    """The statistic with a percentile interval from resampling items with replacement; no
    interval when fewer than half of the resamples define the statistic (constant draws)."""
    a, b = paired(x, y)
    value = statistic(a, b)
    defined = _defined_draws(statistic, a, b, n_resamples, seed)
    if value is None or defined.size < n_resamples / 2:
        return Interval(estimate=value, level=level, n=int(a.size))
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(defined, [tail, 100 - tail])
    return Interval(estimate=value, low=float(low), high=float(high), level=level, n=int(a.size))


def _defined_draws(statistic: Statistic, a: Array, b: Array, n_resamples: int, seed: int) -> Array:
    """The statistic over seeded resamples of the items, undefined draws dropped."""
    if not a.size:
        return np.array([], dtype=np.float64)
    rng = np.random.default_rng(seed)
    draws = [statistic(a[i], b[i]) for i in rng.integers(0, a.size, (n_resamples, a.size))]
    return np.array([d for d in draws if d is not None], dtype=np.float64)


def to_categories(scores: npt.ArrayLike, n_categories: int) -> Array:
    """Snap 0..1 scores onto ``n_categories`` evenly spaced scale points, coded 0..k-1."""
    if n_categories < 2:
        raise ValueError("a scale needs at least two categories")
    snapped: Array = np.round(as_array(scores) * (n_categories - 1))
    return snapped


def quadratic_weighted_kappa(a: npt.ArrayLike, b: npt.ArrayLike, n_categories: int) -> float | None:
    """Cohen's kappa with quadratic weights for two raters on codes 0..k-1 (NaN pairs dropped);
    None (undetermined) under two pairs, where chance agreement has no meaning."""
    x, y = paired(a, b)
    if x.size < 2:
        return None
    k = n_categories
    observed = np.zeros((k, k))
    np.add.at(observed, (x.astype(int), y.astype(int)), 1.0)
    expected = np.outer(observed.sum(1), observed.sum(0)) / x.size
    idx = np.arange(k)
    weights = (idx[:, None] - idx[None, :]) ** 2 / (k - 1) ** 2
    disagreement_expected = float((weights * expected).sum())
    if disagreement_expected == 0:
        return None
    return 1.0 - float((weights * observed).sum()) / disagreement_expected


def coincidence_matrix(ratings: npt.ArrayLike) -> tuple[Array, Array]:
    """Krippendorff's coincidence matrix: (sorted distinct values, square matrix over them);
    units with fewer than two ratings carry no pairable values and are left out."""
    table = as_array(ratings)
    if table.ndim != 2:
        raise ValueError(f"ratings must be a 2-D items x raters table, got shape {table.shape}")
    values = np.unique(table[~np.isnan(table)])
    counts = np.stack([(table == v).sum(axis=1) for v in values], axis=1).astype(np.float64)
    m = counts.sum(axis=1)
    counts, m = counts[m >= 2], m[m >= 2]
    scaled = counts / (m - 1)[:, None]
    matrix = counts.T @ scaled - np.diag(scaled.sum(axis=0))
    return values, matrix


def _squared_distances(values: Array, marginals: Array, level: Level) -> Array:
    if level == "nominal":
        return 1.0 - np.eye(values.size)
    if level == "interval":
        return (values[:, None] - values[None, :]) ** 2
    cumulative = np.concatenate([[0.0], np.cumsum(marginals)])
    lo = np.minimum.outer(np.arange(values.size), np.arange(values.size))
    hi = np.maximum.outer(np.arange(values.size), np.arange(values.size))
    between = cumulative[hi + 1] - cumulative[lo]
    distances: Array = (between - (marginals[:, None] + marginals[None, :]) / 2) ** 2
    return distances


def krippendorff_alpha(ratings: npt.ArrayLike, level: Level = "nominal") -> float | None:
    """Krippendorff's alpha, ``1 - D_o / D_e`` with the nominal, ordinal (rank-based, from the
    value marginals) or interval metric; ``None`` with no pairable values or a single value."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; use one of {LEVELS}")
    values, matrix = coincidence_matrix(ratings)
    marginals = matrix.sum(axis=1)
    n = marginals.sum()
    if values.size < 2 or n < 2:
        return None
    delta = _squared_distances(values, marginals, level)
    observed = float((matrix * delta).sum()) / n
    expected = float((np.outer(marginals, marginals) * delta).sum()) / (n * (n - 1))
    return None if expected == 0 else 1.0 - observed / expected


def leave_one_out(ratings: npt.ArrayLike, statistic: Statistic) -> LeaveOneOut:
    """Each rater against the mean of the others (the human ceiling); raters with too little
    overlap give ``None`` and are left out of the summary."""
    table = as_array(ratings)
    others = [row_means(np.delete(table, r, axis=1)) for r in range(table.shape[1])]
    per_rater = [statistic(table[:, r], reference) for r, reference in enumerate(others)]
    defined = [v for v in per_rater if v is not None]
    mean = float(np.mean(defined)) if defined else None
    median = float(np.median(defined)) if defined else None
    return LeaveOneOut(per_rater, mean, median, table.shape[1])


def row_means(table: npt.ArrayLike) -> Array:
    """Mean of each row over its present values (``NaN`` where a row has none)."""
    values = as_array(table)
    counts = (~np.isnan(values)).sum(axis=1)
    sums = np.nansum(values, axis=1)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def pass_spread(passes: npt.ArrayLike) -> PassSpread:
    """Within-item spread of the judge's passes (``items x passes``, ``NaN`` = unscored)."""
    rows = [scored for row in as_array(passes) if (scored := row[~np.isnan(row)]).size]
    ranges = [float(np.ptp(r)) for r in rows]
    sds = [float(np.std(r, ddof=1)) for r in rows if r.size >= 2]
    return PassSpread(
        mean_sd=float(np.mean(sds)) if sds else None,
        max_sd=float(np.max(sds)) if sds else None,
        mean_range=float(np.mean(ranges)) if ranges else None,
        items_identical=sum(1 for r in ranges if r == 0),
        items=len(ranges),
    )


def denoising_gain(
    passes: npt.ArrayLike, reference: npt.ArrayLike, statistic: Statistic
) -> DenoisingGain:
    """What averaging passes buys: statistic(mean of passes) minus the mean single-pass statistic."""
    table = as_array(passes)
    ref = as_array(reference)
    singles = [statistic(table[:, p], ref) for p in range(table.shape[1])]
    defined = [s for s in singles if s is not None]
    single = float(np.mean(defined)) if defined else None
    averaged = statistic(row_means(table), ref)
    gain = averaged - single if averaged is not None and single is not None else None
    return DenoisingGain(single, averaged, gain)


def majority_vote(table: npt.ArrayLike) -> Array:
    """Most frequent value per row; ties go to the smaller value, as ``np.unique`` sorts."""
    out = []
    for row in as_array(table):
        present = row[~np.isnan(row)]
        if present.size == 0:
            out.append(np.nan)
            continue
        values, counts = np.unique(present, return_counts=True)
        out.append(float(values[np.argmax(counts)]))
    return np.array(out, dtype=np.float64)


def with_extra_rater(ratings: npt.ArrayLike, extra: npt.ArrayLike) -> Array:
    """The ratings table with one more column (e.g. the judge as one more rater)."""
    table = as_array(ratings)
    column = as_array(extra).reshape(-1, 1)
    if column.shape[0] != table.shape[0]:
        raise ValueError(f"extra rater has {column.shape[0]} ratings for {table.shape[0]} items")
    return np.hstack([table, column])
