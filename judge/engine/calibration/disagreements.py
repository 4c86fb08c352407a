"""Two raters' score files matched on (item, seat, trait), and every pair at least a
threshold apart, with both verdicts (no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from judge.core.scoring import agreement as ag
from judge.engine.calibration.items import ScoreRow
from judge.engine.calibration.manifest import CalibrationSetError
from judge.engine.calibration.report_model import Disagreement


class TraitComparison(BaseModel):
    model_config = ConfigDict(extra="forbid")

    trait: str
    n_paired: int
    spearman: float | None
    kendall_tau_b: float | None
    mae: float | None
    bias: float | None
    n_disagreements: int


class RaterComparison(BaseModel):
    """Rater A against rater B: per-trait agreement and the disagreements, largest first."""

    model_config = ConfigDict(extra="forbid")

    rater_a: str
    rater_b: str
    threshold: float
    traits: list[TraitComparison]
    disagreements: list[Disagreement]
    only_in_a: int
    only_in_b: int


def index_rows(rows: Sequence[ScoreRow], source: str) -> dict[tuple[str, str, str], ScoreRow]:
    keyed: dict[tuple[str, str, str], ScoreRow] = {}
    for row in rows:
        if row.key in keyed:
            raise CalibrationSetError(
                f"{source}: more than one score for item {row.item_id} seat {row.seat} trait {row.trait}"
            )
        keyed[row.key] = row
    return keyed


def disagreements(
    pairs: Sequence[tuple[ScoreRow, ScoreRow]], threshold: float
) -> list[Disagreement]:
    """Pairs at least ``threshold`` apart, largest difference first."""
    found = [
        Disagreement(
            item_id=a.item_id,
            seat=a.seat,
            trait=a.trait,
            judge_score=a.score,
            human_score=b.score,
            difference=a.score - b.score,
            judge_verdict=a.verdict,
            human_verdict=b.verdict,
        )
        for a, b in pairs
        if a.score is not None and b.score is not None and abs(a.score - b.score) >= threshold
    ]
    return sorted(found, key=lambda d: (-abs(d.difference), d.item_id, d.seat, d.trait))


def trait_comparison(
    trait: str, pairs: Sequence[tuple[ScoreRow, ScoreRow]], threshold: float
) -> TraitComparison:
    a = np.array([p[0].score for p in pairs], dtype=np.float64)
    b = np.array([p[1].score for p in pairs], dtype=np.float64)
    return TraitComparison(
        trait=trait,
        n_paired=len(pairs),
        spearman=ag.spearman(a, b),
        kendall_tau_b=ag.kendall_tau_b(a, b),
        mae=ag.mean_absolute_error(a, b),
        bias=ag.bias(a, b),
        n_disagreements=int((np.abs(a - b) >= threshold).sum()),
    )


def compare(
    rows_a: Sequence[ScoreRow],
    rows_b: Sequence[ScoreRow],
    *,
    threshold: float = 0.25,
    source_a: str = "A",
    source_b: str = "B",
) -> RaterComparison:
    """Match two raters' rows and list every pair at least ``threshold`` apart (0..1 scale);
    a Disagreement's ``judge_*`` fields hold rater A and its ``human_*`` fields rater B."""
    if not 0.0 < threshold <= 1.0:
        raise CalibrationSetError(f"threshold must lie in (0, 1], got {threshold}")
    a, b = index_rows(rows_a, source_a), index_rows(rows_b, source_b)
    common = [k for k in a if k in b and a[k].score is not None and b[k].score is not None]
    pairs = [(a[k], b[k]) for k in common]
    traits = sorted({k[2] for k in common})
    return RaterComparison(
        rater_a=_rater(rows_a, source_a),
        rater_b=_rater(rows_b, source_b),
        threshold=threshold,
        traits=[
            trait_comparison(t, [p for p in pairs if p[0].trait == t], threshold) for t in traits
        ],
        disagreements=disagreements(pairs, threshold),
        only_in_a=len(set(a) - set(b)),
        only_in_b=len(set(b) - set(a)),
    )


def _rater(rows: Sequence[ScoreRow], source: str) -> str:
    names = sorted({r.rater for r in rows})
    return ", ".join(names) if names else source
