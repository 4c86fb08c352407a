"""The held-out proof of an alignment candidate (docs/alignment.md, "The proof"): baseline and
candidate read against the owners on the held-out runs only, by `judge calibrate`'s own
agreement code, and a paired bootstrap over those runs of the candidate's gain. A candidate
is adoptable only when the interval of its gain lies above zero."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from pydantic import Field

from judge.core.domain.interval import Interval
from judge.core.domain.outputs import Output
from judge.core.scoring import agreement as ag
from judge.engine.calibration.align import RunSplit, part
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest, LabelSpec
from judge.engine.calibration.report import JudgedPasses, label_panel, trait_agreement
from judge.engine.calibration.report_model import TraitAgreement

BOOTSTRAP_RESAMPLES = 2000
Statistic = Callable[[ag.Array, ag.Array], float | None]


class LabelScope(Output):
    """What a trait is read against: the set's manifest, the label and the judged trait."""

    manifest: CalibrationManifest
    label: LabelSpec
    trait: str


def held_out_agreement(
    items: Sequence[CalibrationItem],
    scope: LabelScope,
    passes: JudgedPasses,
    split: RunSplit,
    n_passes: int,
) -> TraitAgreement:
    """The judge's ``passes`` against the owners on the held-out runs of ``split`` only:
    Spearman and Kendall with intervals, kappa, MAE, bias and the owners' ceiling, exactly as
    `judge calibrate` reports them (the function other held-out measures call)."""
    held = part(items, split.held_out)
    return trait_agreement(held, scope.manifest, scope.label, scope.trait, passes, n_passes)


def _mae_gain(base: ag.Array, cand: ag.Array, human: ag.Array) -> float | None:
    before, after = ag.mean_absolute_error(base, human), ag.mean_absolute_error(cand, human)
    return None if before is None or after is None else before - after


def _spearman_gain(base: ag.Array, cand: ag.Array, human: ag.Array) -> float | None:
    before, after = ag.spearman(base, human), ag.spearman(cand, human)
    return None if before is None or after is None else after - before


GAINS = {"mae": _mae_gain, "spearman": _spearman_gain}


class PairedSides(Output):
    """Per held-out seat: its run, the baseline's and the candidate's means, the owners' mean."""

    runs: list[str]
    baseline: list[float | None]
    candidate: list[float | None]
    owners: list[float | None]


def paired_sides(
    items: Sequence[CalibrationItem],
    scope: LabelScope,
    baseline: JudgedPasses,
    candidate: JudgedPasses,
    split: RunSplit,
) -> PairedSides:
    held = part(items, split.held_out)
    targets, panel = label_panel(held, scope.manifest, scope.label)

    def means(passes: JudgedPasses) -> list[float | None]:
        out = []
        for item, seat in targets:
            scores = [
                p.score for p in passes.get((item, seat, scope.trait), []) if p.score is not None
            ]
            out.append(float(np.mean(scores)) if scores else None)
        return out

    owners = [None if np.isnan(v) else float(v) for v in ag.row_means(panel)]
    return PairedSides(
        runs=[i for i, _ in targets],
        baseline=means(baseline),
        candidate=means(candidate),
        owners=owners,
    )


def paired_gain(sides: PairedSides, which: str, *, seed: int) -> Interval:
    """The candidate's gain (``mae``: baseline MAE minus candidate MAE; ``spearman``: candidate
    minus baseline) with a 95% percentile interval from resampling held-out runs with
    replacement, every seat of a drawn run together (paired: both sides of a draw are read
    on the same seats)."""
    gain = GAINS[which]
    base, cand, human = (
        np.array(v, dtype=np.float64) for v in (sides.baseline, sides.candidate, sides.owners)
    )
    runs = sorted(set(sides.runs))
    rows = {r: np.array([n for n, x in enumerate(sides.runs) if x == r]) for r in runs}
    estimate = gain(base, cand, human)
    rng = np.random.default_rng(seed)
    draws = []
    for picks in rng.integers(0, len(runs), (BOOTSTRAP_RESAMPLES, len(runs))):
        at = np.concatenate([rows[runs[p]] for p in picks])
        if (value := gain(base[at], cand[at], human[at])) is not None:
            draws.append(value)
    n, method = len(runs), "paired bootstrap over runs"
    if estimate is None or len(draws) < BOOTSTRAP_RESAMPLES / 2:
        return Interval(estimate=estimate, n=n, method=method)
    low, high = np.percentile(draws, [2.5, 97.5])
    return Interval(estimate=estimate, low=float(low), high=float(high), n=n, method=method)


class HeldOutProof(Output):
    """Baseline and candidate on the held-out runs, and whether the candidate may be adopted."""

    baseline: TraitAgreement
    candidate: TraitAgreement
    mae_gain: Interval = Field(description="baseline MAE minus candidate MAE; positive: closer")
    spearman_gain: Interval = Field(description="candidate Spearman minus baseline Spearman")
    adoptable: bool = Field(description="the interval of the MAE gain lies above zero")


def adoptable(gain: Interval) -> bool:
    """The rule: adopt only when the interval excludes no gain (its lower bound above 0)."""
    return gain.low is not None and gain.low > 0.0


def held_out_proof(
    items: Sequence[CalibrationItem],
    scope: LabelScope,
    baseline: tuple[JudgedPasses, int],
    candidate: tuple[JudgedPasses, int],
    split: RunSplit,
) -> HeldOutProof:
    """Both sides on the held-out runs, and the paired intervals of the candidate's gain."""
    sides = paired_sides(items, scope, baseline[0], candidate[0], split)
    mae = paired_gain(sides, "mae", seed=split.seed)
    return HeldOutProof(
        baseline=held_out_agreement(items, scope, baseline[0], split, baseline[1]),
        candidate=held_out_agreement(items, scope, candidate[0], split, candidate[1]),
        mae_gain=mae,
        spearman_gain=paired_gain(sides, "spearman", seed=split.seed),
        adoptable=adoptable(mae),
    )
