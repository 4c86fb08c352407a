"""Build a calibration report from items, their human labels and the judge's passes (no I/O)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import NamedTuple

import numpy as np

from judge.core.domain.judging import JudgePass
from judge.core.scoring import agreement as ag
from judge.core.scoring.objectives import conditions_for_seat, objectives
from judge.engine.calibration.disagreements import compare
from judge.engine.calibration.items import CalibrationItem, HumanLabel, ScoreRow
from judge.engine.calibration.manifest import CalibrationManifest, LabelSpec
from judge.engine.calibration.report_model import (
    Alpha,
    CalibrationReport,
    Ceiling,
    DenoisingOut,
    ItemPoint,
    JudgeAgreement,
    PassSpreadOut,
    ReferenceAgreement,
    SetInfo,
    TraitAgreement,
)

Target = tuple[str, str]  # (item_id, seat)
JudgedPasses = Mapping[tuple[str, str, str], Sequence[JudgePass]]  # (item, seat, trait) -> passes


def targets_for(items: Sequence[CalibrationItem], label: str) -> list[Target]:
    seen = {(i.item_id, lab.seat) for i in items for lab in i.labels if lab.label == label}
    return [(i.item_id, s) for i in items for s in i.run.scored_seats if (i.item_id, s) in seen]


def ratings_table(
    items: Sequence[CalibrationItem], targets: Sequence[Target], label: str, groups: set[str]
) -> ag.Array:
    """``targets x raters`` scores of one label from the given rater groups (NaN = not rated)."""
    wanted = [
        (i.item_id, lab)
        for i in items
        for lab in i.labels
        if lab.label == label and lab.group in groups
    ]
    column = {r: n for n, r in enumerate(sorted({lab.rater for _, lab in wanted}))}
    row = {t: n for n, t in enumerate(targets)}
    table = np.full((len(targets), max(len(column), 1)), np.nan)
    for item_id, lab in wanted:
        if (item_id, lab.seat) in row:
            table[row[(item_id, lab.seat)], column[lab.rater]] = lab.score
    return table


class LabelPanel(NamedTuple):
    """The targets one label rates and the panel's ``targets x raters`` scores of them."""

    targets: list[Target]
    ratings: ag.Array


def label_panel(
    items: Sequence[CalibrationItem], manifest: CalibrationManifest, spec: LabelSpec
) -> LabelPanel:
    """What the judge is read against for one label: its targets and the panel's ratings."""
    targets = targets_for(items, spec.name)
    panel = {g for g in spec.rated_by if manifest.group(g).panel}
    return LabelPanel(targets, ratings_table(items, targets, spec.name, panel))


def pass_table(
    passes: JudgedPasses, targets: Sequence[Target], trait: str, n_passes: int
) -> ag.Array:
    """``targets x passes`` judge scores (NaN = unscored or not made)."""
    table = np.full((len(targets), n_passes), np.nan)
    for r, (item, seat) in enumerate(targets):
        for p in passes.get((item, seat, trait), []):
            if p.score is not None and p.index < n_passes:
                table[r, p.index] = p.score
    return table


def judge_means(
    passes: JudgedPasses, targets: Sequence[Target], trait: str, n_passes: int
) -> ag.Array:
    """The judge's mean score per target (NaN where no pass was scored)."""
    return ag.row_means(pass_table(passes, targets, trait, n_passes))


def _qwk(a: ag.Array, b: ag.Array, k: int) -> float | None:
    """Quadratic-weighted kappa, both sides snapped to the label's ``k`` scale points."""
    return ag.quadratic_weighted_kappa(ag.to_categories(a, k), ag.to_categories(b, k), k)


def judge_agreement(judge: ag.Array, human: ag.Array, k: int, seed: int) -> JudgeAgreement:
    return JudgeAgreement(
        spearman=ag.bootstrap_interval(ag.spearman, judge, human, seed=seed),
        kendall_tau_b=ag.bootstrap_interval(ag.kendall_tau_b, judge, human, seed=seed),
        quadratic_weighted_kappa=_qwk(judge, human, k),
        mae=ag.mean_absolute_error(judge, human),
        bias=ag.bias(judge, human),
    )


_ONE_RATER = "one rater per item, so no rater can be compared with the others"


def ceiling(panel: ag.Array, k: int) -> Ceiling:
    """The panel's own leave-one-out agreement, by the statistics the judge is read with."""
    mae = ag.leave_one_out(panel, ag.mean_absolute_error).mean
    return Ceiling(
        measurable=mae is not None,
        n_raters=panel.shape[1],
        spearman=ag.leave_one_out(panel, ag.spearman).mean,
        kendall_tau_b=ag.leave_one_out(panel, ag.kendall_tau_b).mean,
        quadratic_weighted_kappa=ag.leave_one_out(panel, partial(_qwk, k=k)).mean,
        mae=mae,
        note=None if mae is not None else _ONE_RATER,
    )


def alpha(table: ag.Array) -> Alpha:
    return Alpha(**{level: ag.krippendorff_alpha(table, level) for level in ag.LEVELS})


def snapped(scores: ag.Array, k: int) -> ag.Array:
    """Judge scores put on the label's scale points, so the judge can join the raters in alpha."""
    return ag.to_categories(scores, k) / (k - 1)


def references(
    items: Sequence[CalibrationItem],
    targets: Sequence[Target],
    spec: LabelSpec,
    manifest: CalibrationManifest,
    judge: ag.Array,
    human: ag.Array,
) -> list[ReferenceAgreement]:
    """Judge and panel each against every non-panel rater group (e.g. the expert)."""
    k, panel = spec.scale.n_points, ag.row_means(human)
    out = []
    for group in (g for g in spec.rated_by if not manifest.group(g).panel):
        reference = ag.row_means(ratings_table(items, targets, spec.name, {group}))
        agreement = judge_agreement(judge, reference, k, seed=1)
        kappa = _qwk(reference, panel, k)
        out.append(ReferenceAgreement(reference=group, judge=agreement, panel_kappa=kappa))
    return out


def objective_baseline(
    items: Sequence[CalibrationItem], targets: Sequence[Target], human: ag.Array
) -> float | None:
    """Spearman of the seat's partial-credit share (no model at all) against the humans."""
    runs = {i.item_id: i.run for i in items}
    shares = []
    for item, seat in targets:
        credit = objectives(conditions_for_seat(runs[item].win_conditions, seat)).partial_credit
        shares.append(credit.total / credit.max_possible if credit.max_possible else np.nan)
    values = np.array(shares, dtype=np.float64)
    return ag.spearman(values, human) if np.isfinite(values).any() else None


def judge_pass_spread(
    table: ag.Array, passes: JudgedPasses, targets: Sequence[Target], trait: str
) -> PassSpreadOut:
    """How much the judge's own passes over one item differ (docs/calibration.md)."""
    s = ag.pass_spread(table)
    unscored = sum(
        1 for (i, seat) in targets for p in passes.get((i, seat, trait), []) if p.score is None
    )
    return PassSpreadOut(passes_per_item=table.shape[1], unscored_passes=unscored, **s._asdict())


def trait_agreement(
    items: Sequence[CalibrationItem],
    manifest: CalibrationManifest,
    spec: LabelSpec,
    trait: str,
    passes: JudgedPasses,
    n_passes: int,
) -> TraitAgreement:
    """Everything section 10 asks for, for one trait read against one human label."""
    targets, panel = label_panel(items, manifest, spec)
    table = pass_table(passes, targets, trait, n_passes)
    judge, human, k = ag.row_means(table), ag.row_means(panel), spec.scale.n_points
    denoise = ag.denoising_gain(table, human, ag.spearman)
    return TraitAgreement(
        trait=trait,
        label=spec.name,
        question=spec.question,
        scale_level=spec.scale.level,
        scale_points=k,
        n_items=len(targets),
        n_judged=int(np.isfinite(judge).sum()),
        judge=judge_agreement(judge, human, k, seed=0),
        ceiling=ceiling(panel, k),
        alpha_humans=alpha(panel),
        alpha_humans_and_judge=alpha(ag.with_extra_rater(panel, snapped(judge, k))),
        passes=judge_pass_spread(table, passes, targets, trait),
        denoising=DenoisingOut(**denoise._asdict()),
        references=references(items, targets, spec, manifest, judge, panel),
        objective_baseline_spearman=objective_baseline(items, targets, human),
        note=spec.note,
        points=item_points(targets, judge, human, table),
    )


def item_points(
    targets: Sequence[Target], judge: ag.Array, human: ag.Array, table: ag.Array
) -> list[ItemPoint]:
    def opt(v: float) -> float | None:
        return float(v) if np.isfinite(v) else None

    sds = [ag.pass_spread(row[None, :]).mean_sd for row in table]
    return [
        ItemPoint(item_id=i, seat=s, judge=opt(judge[n]), human=opt(human[n]), pass_sd=sds[n])
        for n, (i, s) in enumerate(targets)
    ]


def human_verdict(labels: Sequence[HumanLabel]) -> str:
    """The votes behind a human score, e.g. ``crowd: No 70, Yes 40, Unsure 13; expert: No``."""
    parts = []
    for group in dict.fromkeys(lab.group for lab in labels):
        raws = [lab.raw for lab in labels if lab.group == group]
        counts = {
            r: raws.count(r) for r in dict.fromkeys(sorted(raws, key=raws.count, reverse=True))
        }
        body = raws[0] if len(raws) == 1 else ", ".join(f"{r} {n}" for r, n in counts.items())
        parts.append(f"{group}: {body}")
    return "; ".join(parts)


def judge_verdict(passes: Sequence[JudgePass]) -> str:
    scored = [p for p in passes if p.score is not None]
    if not scored:
        reasons = sorted({p.unscored_reason or p.parse_status for p in passes})
        return "unscored: " + "; ".join(reasons) if reasons else "not judged"
    first = min(scored, key=lambda p: p.index)
    turns = f" (turns {first.cited_turns})" if first.cited_turns else ""
    return f"{first.rationale}{turns}"


def judge_rows(
    items: Sequence[CalibrationItem], passes: JudgedPasses, traits: Sequence[str], rater: str
) -> list[ScoreRow]:
    """The judge's score file: the mean of the scored passes per (item, seat, trait)."""
    keys = ((i.item_id, s, t) for i in items for s in i.run.scored_seats for t in traits)
    return [_judge_row(key, made, rater) for key in keys if (made := list(passes.get(key, [])))]


def _judge_row(key: tuple[str, str, str], made: Sequence[JudgePass], rater: str) -> ScoreRow:
    scores = [p.score for p in sorted(made, key=lambda p: p.index)]
    scored = [s for s in scores if s is not None]
    return ScoreRow(
        item_id=key[0],
        seat=key[1],
        trait=key[2],
        rater=rater,
        score=float(np.mean(scored)) if scored else None,
        verdict=judge_verdict(made),
        passes=scores,
    )


def human_rows(
    items: Sequence[CalibrationItem], manifest: CalibrationManifest, traits: Sequence[str]
) -> list[ScoreRow]:
    """The human panel's score file: the panel mean per (item, seat, trait), with the votes."""
    rows = []
    for item in items:
        for spec in manifest.labels:
            panel = {g for g in spec.rated_by if manifest.group(g).panel}
            for seat in item.run.scored_seats:
                rows += _human_rows(
                    item, seat, spec, panel, [t for t in spec.traits if t in traits]
                )
    return rows


def _human_rows(
    item: CalibrationItem, seat: str, spec: LabelSpec, panel: set[str], traits: Sequence[str]
) -> list[ScoreRow]:
    labels = [lab for lab in item.labels if lab.label == spec.name and lab.seat == seat]
    scores = [lab.score for lab in labels if lab.group in panel]
    if not scores:
        return []
    row = {"item_id": item.item_id, "seat": seat, "rater": f"humans:{spec.name}"}
    score, verdict = float(np.mean(scores)), human_verdict(labels)
    return [ScoreRow(**row, trait=t, score=score, verdict=verdict) for t in traits]


class ReportScope(NamedTuple):
    """What a calibration report or comparison covers and states: the traits read, the
    passes per trait, the judge model and the slice of the set judged."""

    traits: Sequence[str]
    n_passes: int
    judge_model: str
    slice_text: str

    def label_traits(self, manifest: CalibrationManifest) -> list[tuple[LabelSpec, str]]:
        """Every (label, trait) pair of the set that the scope reads."""
        return [(spec, t) for spec in manifest.labels for t in spec.traits if t in self.traits]


def build_report(
    items: Sequence[CalibrationItem],
    manifest: CalibrationManifest,
    passes: JudgedPasses,
    scope: ReportScope,
    *,
    judge_note: str | None = None,
    threshold: float = 0.5,
) -> CalibrationReport:
    """The whole report: per (label, trait) agreement, and the judge-vs-humans disagreements."""
    per_trait = [
        trait_agreement(items, manifest, spec, t, passes, scope.n_passes)
        for spec, t in scope.label_traits(manifest)
    ]
    queue = compare(
        judge_rows(items, passes, scope.traits, scope.judge_model),
        human_rows(items, manifest, scope.traits),
        threshold=threshold,
    )
    src = manifest.source
    return CalibrationReport(
        set=SetInfo(
            name=manifest.name,
            title=manifest.title,
            citation=manifest.citation,
            licence=manifest.licence.name,
            source=f"{src.repository}@{src.commit[:12]}: {', '.join(src.paths)}",
        ),
        judge_model=scope.judge_model,
        judge_note=judge_note,
        slice=scope.slice_text,
        n_items=len(items),
        passes_per_trait=scope.n_passes,
        traits=per_trait,
        disagreements=queue.disagreements,
        disagreement_threshold=threshold,
    )
