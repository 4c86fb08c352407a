"""Sampled against expected pass scores on one calibration set, from the same passes, with a
paired bootstrap of the difference (docs/calibration.md; no I/O)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from judge.core.domain.interval import Interval
from judge.core.domain.judging import JudgePass, ScoreMode
from judge.core.scoring import agreement as ag
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest
from judge.engine.calibration.report import JudgedPasses, ReportScope, judge_means, label_panel
from judge.engine.judging.score_grid import score_of_pass

N_RESAMPLES = 1000


def rescored(passes: JudgedPasses, mode: ScoreMode) -> JudgedPasses:
    """The passes with ``score`` set to what they count with in ``mode``."""
    return {
        key: [
            p.model_copy(update={"score": score_of_pass(p.written_score, p.expected_score, mode)})
            for p in made
        ]
        for key, made in passes.items()
    }


class ModeRow(BaseModel):
    """One trait read against one label, in both modes."""

    model_config = ConfigDict(extra="forbid")

    trait: str
    label: str
    n_items: int
    n_passes: int
    n_with_distribution: int
    n_spread: int
    mean_entropy_bits: float | None
    spearman_sampled: Interval
    spearman_expected: Interval
    spearman_difference: Interval
    mae_sampled: float | None
    mae_expected: float | None
    mae_difference: Interval | None = None


class SetComparison(BaseModel):
    """Two readings of one calibration set compared: the set, the judge and the slice read."""

    model_config = ConfigDict(extra="forbid")

    set: str
    judge_model: str
    slice: str

    def heading(self, title: str) -> list[str]:
        """The first lines of the comparison's Markdown: what is compared, by whom, on what."""
        return [f"# {self.set}: {title}", "", f"- judge: `{self.judge_model}`; slice: {self.slice}"]


class ModeComparison(SetComparison):
    rows: list[ModeRow]


def paired_difference(
    sampled: ag.Array,
    expected: ag.Array,
    human: ag.Array,
    *,
    seed: int = 0,
    statistic: Callable[[ag.Array, ag.Array], float | None] = ag.spearman,
) -> Interval:
    """statistic(expected, human) - statistic(sampled, human), with a 95% percentile interval
    from resampling items (the same draw for both)."""
    keep = np.isfinite(sampled) & np.isfinite(expected) & np.isfinite(human)
    s, e, h = sampled[keep], expected[keep], human[keep]

    def diff(idx: np.ndarray[tuple[int], np.dtype[np.int64]]) -> float | None:
        a, b = statistic(e[idx], h[idx]), statistic(s[idx], h[idx])
        return None if a is None or b is None else a - b

    value = diff(np.arange(s.size)) if s.size else None
    rng = np.random.default_rng(seed)
    draws = [diff(i) for i in rng.integers(0, s.size, (N_RESAMPLES, s.size))] if s.size else []
    defined = np.array([d for d in draws if d is not None], dtype=np.float64)
    if value is None or defined.size < N_RESAMPLES / 2:
        return Interval(estimate=value, low=None, high=None)
    low, high = np.percentile(defined, [2.5, 97.5])
    return Interval(estimate=value, low=float(low), high=float(high))


def paired_agreement(
    a: ag.Array, b: ag.Array, human: ag.Array, *, sides: tuple[str, str]
) -> dict[str, Interval | float | None]:
    """Spearman and MAE of two readings against the humans and their paired differences
    (``b`` minus ``a``), keyed ``spearman_<side>``, ``mae_<side>``, ``*_difference``."""
    first, second = sides
    return {
        f"spearman_{first}": ag.bootstrap_interval(ag.spearman, a, human, seed=0).bare(),
        f"spearman_{second}": ag.bootstrap_interval(ag.spearman, b, human, seed=0).bare(),
        "spearman_difference": paired_difference(a, b, human),
        f"mae_{first}": ag.mean_absolute_error(a, human),
        f"mae_{second}": ag.mean_absolute_error(b, human),
        "mae_difference": paired_difference(a, b, human, statistic=ag.mean_absolute_error),
    }


def compare_modes(
    items: Sequence[CalibrationItem],
    manifest: CalibrationManifest,
    passes: JudgedPasses,
    scope: ReportScope,
) -> ModeComparison:
    """Per (label, trait): agreement with the human panel mean in sampled and expected mode."""
    sampled, expected = rescored(passes, "sampled"), rescored(passes, "expected")
    rows = []
    for spec, trait in scope.label_traits(manifest):
        targets, panel = label_panel(items, manifest, spec)
        js = judge_means(sampled, targets, trait, scope.n_passes)
        je = judge_means(expected, targets, trait, scope.n_passes)
        row = {"trait": trait, "label": spec.name, "n_items": int(np.isfinite(js).sum())}
        figures = paired_agreement(js, je, ag.row_means(panel), sides=("sampled", "expected"))
        row |= _distribution_counts([p for t in targets for p in passes.get((*t, trait), [])])
        rows.append(ModeRow.model_validate(row | figures))
    return ModeComparison(
        set=manifest.name, judge_model=scope.judge_model, slice=scope.slice_text, rows=rows
    )


def _distribution_counts(passes: Sequence[JudgePass]) -> dict[str, int | float | None]:
    """Written passes, those with a distribution, those spreading it, their mean entropy."""
    made = [p for p in passes if p.written_score is not None]
    dist = [p for p in made if p.score_distribution is not None]
    entropies = [p.score_entropy_bits for p in dist if p.score_entropy_bits is not None]
    return {
        "n_passes": len(made),
        "n_with_distribution": len(dist),
        "n_spread": sum(1 for p in dist if max(p.score_distribution or [1.0]) < 0.99),
        "mean_entropy_bits": float(np.mean(entropies)) if entropies else None,
    }


def _num(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def _ci(i: Interval) -> str:
    if i.low is None or i.high is None:
        return _num(i.estimate)
    return f"{_num(i.estimate)} [{_num(i.low)}, {_num(i.high)}]"


def verdict(row: ModeRow) -> str:
    """Plain words on whether the expected score agrees better with people."""
    return row.spearman_difference.difference_reading(
        above="expected agrees better", below="sampled agrees better"
    )


def render_modes(c: ModeComparison) -> str:
    lines = c.heading("sampled against expected pass scores") + [
        "- one judging: each pass holds the written score and its grid distribution (docs/judge-signal.md)",
        "- Spearman against the human panel mean, 95% percentile bootstrap over items (1000 resamples, seeded);",
        "  the difference is expected minus sampled on the same resampled items",
        "",
        (
            "| trait vs label | items | passes (with distribution, spread) | mean entropy (bits) | Spearman sampled | "
            "Spearman expected | difference | MAE sampled / expected | MAE difference | reading |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in c.rows:
        lines.append(
            f"| {r.trait} vs {r.label} | {r.n_items} | {r.n_passes} ({r.n_with_distribution}, {r.n_spread}) | "
            f"{_num(r.mean_entropy_bits)} | {_ci(r.spearman_sampled)} | {_ci(r.spearman_expected)} | "
            f"{_ci(r.spearman_difference)} | {_num(r.mae_sampled)} / {_num(r.mae_expected)} | "
            f"{_ci(r.mae_difference) if r.mae_difference else 'n/a'} | {verdict(r)} |"
        )
    lines += [
        "",
        (
            "A pass is *spread* when no grid point holds 99% of its distribution. Differences are expected minus "
            "sampled: above 0 is better for Spearman, below 0 is better for MAE. The reading is on Spearman "
            "(ranking), the statistic the set's human ceiling is stated in."
        ),
    ]
    return "\n".join(lines) + "\n"
