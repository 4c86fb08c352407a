"""Calibration plots as static SVG, drawn by matplotlib (the optional ``console`` extra;
without it the pages show the figures in tables and say how to get the plots)."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from judge.core.errors import ConfigError
from judge.engine.calibration.report_model import CalibrationReport, ItemPoint, TraitAgreement

MISSING = "the calibration plots need matplotlib: pip install 'judge[console]'"
JITTER = 0.015


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ConfigError(MISSING) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "font.size": 9, "svg.hashsalt": "judge-console"})
    return plt


def plots_available() -> bool:
    try:
        _pyplot()
    except ConfigError:
        return False
    return True


def _svg(plt: Any, figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    return buffer.getvalue()


class AxisRange(NamedTuple):
    low: float
    high: float


#: Room around the 0..1 square so a point at 0 or 1, jittered, is drawn whole.
SCATTER_RANGE = AxisRange(-0.08, 1.08)


def spread_range(values: Sequence[float]) -> AxisRange:
    """The spread plot's y range: a little below 0, so a box of all-0 SDs stays visible."""
    top = max(values, default=0.0)
    high = max(0.1, top * 1.15)
    return AxisRange(-0.04 * high, high)


def spread_svg(report: CalibrationReport, traits: Sequence[TraitAgreement] | None = None) -> bytes:
    """Per trait, the distribution over items of the pass scores' sample SD (a box per trait,
    a jittered dot per item). A trait judged once per item has no spread, and says so."""
    plt = _pyplot()
    chosen = list(traits if traits is not None else report.traits)
    figure, axes = plt.subplots(figsize=(max(3.5, 1.6 * len(chosen) + 1.5), 3.2))
    data = [[p.pass_sd for p in t.points if p.pass_sd is not None] for t in chosen]
    limits = spread_range([v for values in data for v in values])
    _draw_spreads(axes, data, limits, random.Random(f"{report.set.name}-spread"))
    axes.set_xlim(0.5, len(chosen) + 0.5)
    axes.set_xticks(range(1, len(chosen) + 1), [t.trait.replace("_", "\n") for t in chosen])
    axes.set_ylabel("pass score SD per item (n-1)")
    axes.set_xlabel("trait")
    axes.set_ylim(limits.low, limits.high)
    axes.set_title(f"Pass spread, {report.passes_per_trait} passes per trait")
    axes.grid(axis="y", alpha=0.3)
    return _svg(plt, figure)


def _draw_spreads(
    axes: Any, data: Sequence[Sequence[float]], limits: AxisRange, rng: random.Random
) -> None:
    for position, values in enumerate(data, start=1):
        if not values:
            axes.text(position, limits.high / 2, "one pass per item:\nno spread", ha="center")
            continue
        axes.boxplot([values], positions=[position], showmeans=True, showfliers=False)
        xs = [position + rng.uniform(-0.12, 0.12) for _ in values]
        first = position == next(i for i, v in enumerate(data, start=1) if v)
        axes.scatter(xs, values, s=12, alpha=0.55, zorder=3, label="one item" if first else None)
    if any(data):
        axes.legend(loc="upper right", fontsize=8)


def scatter_svg(report: CalibrationReport, traits: Sequence[TraitAgreement] | None = None) -> bytes:
    """Judge mean against human mean per item, one panel per trait, with seeded jitter so
    items at the same point stay visible; the diagonal is perfect agreement."""
    plt = _pyplot()
    chosen = list(traits if traits is not None else report.traits)
    figure, panels = plt.subplots(1, len(chosen), figsize=(3.4 * len(chosen), 3.4), squeeze=False)
    rng = random.Random(f"{report.set.name}-scatter")
    for number, (axes, trait) in enumerate(zip(panels[0], chosen, strict=True)):
        _scatter_panel(axes, trait, rng)
        if number == 0:
            axes.set_ylabel("judge mean of passes (0..1)")
    figure.tight_layout()
    return _svg(plt, figure)


def agreement_points(
    axes: Any,
    points: Sequence[ItemPoint],
    rng: random.Random,
    *,
    band: float | None = None,
    label: str | None = None,
) -> int:
    """The diagonal of perfect agreement (with the owners' MAE ``band`` shaded around it) and a
    jittered dot per item with both means; how many dots were drawn."""
    drawn = [p for p in points if p.judge is not None and p.human is not None]
    axes.plot([0, 1], [0, 1], linestyle="--", linewidth=0.8, color="grey", label="agreement")
    if band is not None:
        lows, highs = [-band, 1 - band], [band, 1 + band]
        axes.fill_between([0, 1], lows, highs, alpha=0.12, label="owners' ceiling (MAE)")
    xs = [p.human + rng.uniform(-JITTER, JITTER) for p in drawn]  # type: ignore[operator]
    ys = [p.judge + rng.uniform(-JITTER, JITTER) for p in drawn]  # type: ignore[operator]
    axes.scatter(xs, ys, s=18, alpha=0.7, clip_on=False, label=label)
    axes.set_xlim(*SCATTER_RANGE)
    axes.set_ylim(*SCATTER_RANGE)
    return len(drawn)


def _scatter_panel(axes: Any, trait: TraitAgreement, rng: random.Random) -> None:
    n = agreement_points(axes, trait.points, rng)
    axes.set_xlabel("human mean (0..1)")
    axes.set_title(f"{trait.trait.replace('_', ' ')} (n={n})")
    axes.grid(alpha=0.3)


def inline_svg(svg: bytes) -> str:
    """An SVG document as an element to place inside an HTML page (no XML prolog)."""
    text = svg.decode("utf-8")
    return text[text.index("<svg") :]
