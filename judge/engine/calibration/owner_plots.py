"""The console's agreement plot: one era's judge against the owners' mean per item, with the
owners' own ceiling drawn beside the diagonal (docs/calibration.md, "Reading the figures")."""

from __future__ import annotations

import random

from judge.engine.calibration.owners import LiveAgreement
from judge.engine.calibration.plots import _pyplot, _svg, agreement_points


def agreement_svg(live: LiveAgreement) -> bytes:
    """Judge mean (y) against the owners' mean (x) per item; the shaded band around the
    diagonal is the owners' own MAE (the ceiling)."""
    plt = _pyplot()
    result = live.agreement
    rng = random.Random(f"{live.era_id}-{live.trait}")
    figure, axes = plt.subplots(figsize=(4.2, 4.0))
    n = agreement_points(axes, result.points, rng, band=result.ceiling.mae, label="one item")
    axes.set_xlabel("owners' mean label (0..1)")
    axes.set_ylabel("judge mean of passes (0..1)")
    spearman = result.judge.spearman.estimate
    ceiling = result.ceiling.spearman
    axes.set_title(
        f"{live.trait.replace('_', ' ')} (n={n}): Spearman "
        f"{'n/a' if spearman is None else f'{spearman:.2f}'}, ceiling "
        f"{'n/a' if ceiling is None else f'{ceiling:.2f}'}",
        fontsize=9,
    )
    axes.legend(loc="upper left", fontsize=7)
    axes.grid(alpha=0.3)
    return _svg(plt, figure)
