"""The score-integrity defence off against on (docs/integrity.md), on one calibration set:
agreement with people on each side and its paired bootstrap difference (no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from judge.core.domain.interval import Interval
from judge.core.domain.judging import ScoreMode
from judge.core.scoring import agreement as ag
from judge.core.versions import JUDGE_PROMPT_VERSION, UNDEFENDED_PROMPT_VERSION
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest
from judge.engine.calibration.modes import SetComparison, _ci, _num, paired_agreement, rescored
from judge.engine.calibration.report import JudgedPasses, ReportScope, judge_means, label_panel


class DefenceRow(BaseModel):
    """One trait read against one label, in one pass-score mode, with the defence off and on."""

    model_config = ConfigDict(extra="forbid")

    trait: str
    label: str
    pass_score: ScoreMode
    n_items: int
    spearman_off: Interval
    spearman_on: Interval
    spearman_difference: Interval
    mae_off: float | None
    mae_on: float | None
    mae_difference: Interval


class DefenceComparison(SetComparison):
    rows: list[DefenceRow]


def compare_defence(
    items: Sequence[CalibrationItem],
    manifest: CalibrationManifest,
    off: JudgedPasses,
    on: JudgedPasses,
    scope: ReportScope,
    *,
    modes: Sequence[ScoreMode],
) -> DefenceComparison:
    """Per (label, trait, mode): agreement with the human panel mean, defence off and on."""
    rows = []
    for spec, trait in scope.label_traits(manifest):
        targets, panel = label_panel(items, manifest, spec)
        for mode in modes:
            a = judge_means(rescored(off, mode), targets, trait, scope.n_passes)
            b = judge_means(rescored(on, mode), targets, trait, scope.n_passes)
            n_items = int((np.isfinite(a) & np.isfinite(b)).sum())
            row = {"trait": trait, "label": spec.name, "pass_score": mode, "n_items": n_items}
            figures = paired_agreement(a, b, ag.row_means(panel), sides=("off", "on"))
            rows.append(DefenceRow.model_validate(row | figures))
    return DefenceComparison(
        set=manifest.name, judge_model=scope.judge_model, slice=scope.slice_text, rows=rows
    )


def reading(row: DefenceRow) -> str:
    """Plain words on whether the defence costs agreement with people (on Spearman)."""
    return row.spearman_difference.difference_reading(
        above="better with the defence", below="worse with the defence"
    )


_DEFENCE_HEAD = [
    (
        f"- off: prompt version {UNDEFENDED_PROMPT_VERSION}, nothing withheld; on: judge-directed "
        f"text withheld and the transcript spotlit (prompt version {JUDGE_PROMPT_VERSION}, "
        "docs/integrity.md)"
    ),
    (
        "- Spearman against the human panel mean, 95% percentile bootstrap over items (1000 "
        "resamples, seeded); differences are on minus off on the same resampled items"
    ),
    "",
    (
        "| trait vs label | pass score | items | Spearman off | Spearman on | difference "
        "| MAE off / on | MAE difference | reading |"
    ),
    "|---|---|---|---|---|---|---|---|---|",
]


def render_defence(c: DefenceComparison) -> str:
    lines = c.heading("the score-integrity defence off against on") + _DEFENCE_HEAD
    for r in c.rows:
        lines.append(
            f"| {r.trait} vs {r.label} | {r.pass_score} | {r.n_items} | {_ci(r.spearman_off)} "
            f"| {_ci(r.spearman_on)} | {_ci(r.spearman_difference)} | {_num(r.mae_off)} / "
            f"{_num(r.mae_on)} | {_ci(r.mae_difference)} | {reading(r)} |"
        )
    return "\n".join(lines) + "\n"
