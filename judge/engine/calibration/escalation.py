"""Selective escalation on a calibration set (docs/escalation.md, "On a calibration set"): each
labelled seat of a trait as an escalation item, from the set's human labels and a pass store
of the judge, with no judge call. The rules (confidence, agreement, split, threshold) are the
store path's, in judge/core/scoring/escalation.py; only the scale agreement is read on is the
set's own."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from judge.core.domain.judging import ScoreMode
from judge.core.scoring import agreement as ag
from judge.core.scoring import escalation as rules
from judge.core.scoring.escalation import JudgedItem
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest, CalibrationSetError, LabelSpec
from judge.engine.calibration.modes import rescored
from judge.engine.calibration.report import JudgedPasses, label_panel


def label_for(manifest: CalibrationManifest, trait: str) -> LabelSpec:
    """The set's label that ``trait`` is read against (CalibrationSetError naming the traits
    the set does label)."""
    found = next((spec for spec in manifest.labels if trait in spec.traits), None)
    if found is None:
        raise CalibrationSetError(
            f"{manifest.name} has no human label for {trait!r}; labelled traits: {manifest.traits}"
        )
    return found


def scale_points(spec: LabelSpec) -> tuple[float, ...]:
    """The points a label's answers score on (0..1), lowest first: the anchors agreement is
    read on for the set (0, 0.25, 0.5, 0.75, 1 for a five-point scale)."""
    return tuple(sorted(set(spec.scale.values.values())))


def measure_of(spec: LabelSpec) -> str:
    """How agreement is named for the label, in the stored figures' ``measure``."""
    points = ", ".join(f"{p:g}" for p in scale_points(spec))
    return f"agreement on the label's scale points ({points})"


def set_items(
    items: Sequence[CalibrationItem],
    manifest: CalibrationManifest,
    trait: str,
    passes: JudgedPasses,
    *,
    mode: ScoreMode = "sampled",
) -> list[JudgedItem]:
    """Every seat the trait's label rates that the judge scored, in the set's order: the
    judge's mean over its scored passes (counted in ``mode``), the human panel's mean label
    (what `judge calibrate` reads the judge against), the confidence the passes give (spread,
    grid entropy, panel range) and the label's scale points. Each item of the set is one run
    of the split. A seat without a scored pass or a panel label is left out."""
    spec = label_for(manifest, trait)
    points = scale_points(spec)
    targets, panel = label_panel(items, manifest, spec)
    counted = rescored({k: v for k, v in passes.items() if k[2] == trait}, mode)
    out = []
    for (item_id, seat), human in zip(targets, ag.row_means(panel), strict=True):
        made = counted.get((item_id, seat, trait), [])
        scored = [p.score for p in made if p.score is not None]
        if not scored or not np.isfinite(human):
            continue
        sure = rules.passes_confidence(made).value
        out.append(JudgedItem(item_id, seat, float(np.mean(scored)), float(human), sure, points))
    return out
