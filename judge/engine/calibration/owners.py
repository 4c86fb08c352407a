"""Owners' labels as a calibration set: each owner one rater of the ``owners`` panel, each
labelled trait one label, each run one item, read by `judge calibrate`'s own statistics
(docs/calibration.md, "Owners label"). No I/O here but the export's files."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, computed_field

from judge.core.domain.interval import Interval
from judge.core.domain.judging import JudgePass, TraitResult
from judge.core.domain.labels import ANCHORS, Label
from judge.core.domain.run import Run, parse_run_json
from judge.core.domain.scorecard import Scorecard
from judge.core.scoring.labelling import weighted_error
from judge.engine.calibration.items import (
    CalibrationItem,
    HumanLabel,
    ItemLabels,
    read_jsonl,
    write_items,
)
from judge.engine.calibration.manifest import (
    CalibrationManifest,
    CalibrationSetError,
    LabelSpec,
    RaterGroup,
    Scale,
)
from judge.engine.calibration.report import JudgedPasses, trait_agreement
from judge.engine.calibration.report_model import ItemPoint, TraitAgreement

GROUP = "owners"
#: How an anchor is written in the set's files (the raw answer of the label).
RAW = {0.0: "0", 0.5: "0.5", 1.0: "1"}
MANIFEST_FILE = "manifest.yaml"
_FILES = ["labels.jsonl", "runs"]
_OWNER_RATERS = RaterGroup(
    name=GROUP, raters_per_item=1, panel=True, description="each owner who labelled is one rater"
)


def owners_manifest(traits: Sequence[str], *, content_id: str = "0" * 40) -> CalibrationManifest:
    """The set the owners' labels form: one label per trait, on the rubric's anchors."""
    if not traits:
        raise CalibrationSetError("no owner has labelled a trait yet: there is no set to make")
    return CalibrationManifest(
        name="owners",
        title="Owners' labels kept by the judge service",
        description="Labels the platform's owners gave in the console or through the API, "
        "one per owner, seat and trait, on the rubric's anchors 0, 0.5 and 1.",
        importer="labels",
        source={"repository": "judge-store/labels", "commit": content_id, "paths": _FILES},
        licence={"name": "the platform's own data"},
        citation="Owners' labels exported by `judge export labels`.",
        local_folder="owners",
        raters=[_OWNER_RATERS],
        labels=[_spec(t) for t in traits],
    )


def _spec(trait: str) -> LabelSpec:
    return LabelSpec(
        name=trait,
        question=f"The owner's own score for {trait.replace('_', ' ')}, on the rubric's anchors",
        rated_by=[GROUP],
        scale=Scale(level="ordinal", values={RAW[a]: a for a in ANCHORS}),
        traits=[trait],
    )


def human_labels(labels: Iterable[Label]) -> list[HumanLabel]:
    """One rating per owner, seat and trait: an owner's later label replaces their earlier."""
    latest = {(lab.seat, lab.trait, lab.labelled_by): lab for lab in labels}
    return [
        HumanLabel(
            seat=lab.seat,
            label=lab.trait,
            group=GROUP,
            rater=lab.labelled_by,
            raw=RAW[lab.score],
            score=lab.score,
        )
        for lab in latest.values()
    ]


def owner_items(runs: Mapping[str, Run], labels: Sequence[Label]) -> list[CalibrationItem]:
    """Each labelled run as a calibration item (in the order of ``runs``)."""
    by_run: dict[str, list[Label]] = {}
    for lab in labels:
        by_run.setdefault(lab.run_id, []).append(lab)
    return [
        CalibrationItem(item_id=run_id, run=run, labels=human_labels(by_run[run_id]))
        for run_id, run in runs.items()
        if run_id in by_run
    ]


def card_passes(cards: Iterable[Scorecard]) -> JudgedPasses:
    """The judge's passes of each card, keyed as `judge calibrate` keys them; a trait scored
    under an adopted calibration map (docs/alignment.md) reads as one pass of its mapped mean,
    its trait score."""
    out: dict[tuple[str, str, str], list[JudgePass]] = {}
    for card in cards:
        for seat in card.seats.values():
            for name, result in seat.every_trait.items():
                out[(card.run_id, seat.seat, name)] = _scored_passes(result)
    return out


def _scored_passes(result: TraitResult) -> list[JudgePass]:
    if result.calibration_map_hash is None or not result.passes:
        return list(result.passes)
    first = min(result.passes, key=lambda p: p.index)
    update = {"index": 0, "score": result.mean, "sampled_score": None, "expected_score": None}
    return [first.model_copy(update=update)]


def passes_width(passes: JudgedPasses) -> int:
    return max((p.index + 1 for made in passes.values() for p in made), default=1)


class LiveAgreement(BaseModel):
    """One trait's agreement of one era's judge with the owners."""

    model_config = ConfigDict(extra="forbid")

    trait: str
    era_id: str
    judge_model: str
    agreement: TraitAgreement
    n_labels: int
    n_labelled_twice: int = Field(description="items with labels by two or more owners")
    weighted_mae: float | None = Field(
        description="MAE with each item weighted by 1 / its queue inclusion probability"
    )
    weighted_bias: float | None


def era_agreement(
    items: Sequence[CalibrationItem],
    passes: JudgedPasses,
    *,
    trait: str,
    era_id: str,
    judge_model: str,
    weights: Mapping[tuple[str, str], float] | None = None,
) -> LiveAgreement:
    """The owners against one era's judge on one trait. ``weights`` (by item and seat) weigh
    the weighted MAE and bias: 0 for an item without one, 1 for every item without them."""
    manifest = owners_manifest([trait])
    result = trait_agreement(
        items, manifest, manifest.labels[0], trait, passes, passes_width(passes)
    )
    counts = Counter((i.item_id, lab.seat) for i in items for lab in i.labels if lab.label == trait)
    mae, bias = _weighted_error(result.points, weights)
    return LiveAgreement(
        trait=trait,
        era_id=era_id,
        judge_model=judge_model,
        agreement=result,
        n_labels=sum(counts.values()),
        n_labelled_twice=sum(1 for n in counts.values() if n >= 2),
        weighted_mae=mae,
        weighted_bias=bias,
    )


def _weighted_error(
    points: Sequence[ItemPoint], weights: Mapping[tuple[str, str], float] | None
) -> tuple[float | None, float | None]:
    paired = [p for p in points if p.judge is not None and p.human is not None]
    return weighted_error(
        [p.judge for p in paired],  # type: ignore[misc]
        [p.human for p in paired],  # type: ignore[misc]
        [1.0 if weights is None else weights.get((p.item_id, p.seat), 0.0) for p in paired],
    )


class EraDrift(BaseModel):
    """A newer era's agreement with the owners against the era before it, on the items
    labelled and judged in both."""

    model_config = ConfigDict(extra="forbid")

    trait: str
    era_id: str
    previous_era_id: str
    spearman: Interval
    previous_spearman: Interval

    @computed_field  # type: ignore[prop-decorator]
    @property
    def n_items(self) -> int:
        """The items labelled and judged in both eras."""
        return self.spearman.n or 0

    @computed_field(  # type: ignore[prop-decorator]
        description="the newer era's Spearman lies below the older era's bootstrap interval"
    )
    @property
    def dropped(self) -> bool:
        now, before = self.spearman.estimate, self.previous_spearman.low
        return now is not None and before is not None and now < before


def era_drift(newer: LiveAgreement, older: LiveAgreement) -> EraDrift:
    """Compare two eras' agreement (each computed on the same common items)."""
    return EraDrift(
        trait=newer.trait,
        era_id=newer.era_id,
        previous_era_id=older.era_id,
        spearman=newer.agreement.judge.spearman,
        previous_spearman=older.agreement.judge.spearman,
    )


def export_set(
    runs: Mapping[str, Run], labels: Sequence[Label], traits: Sequence[str], out: Path
) -> CalibrationManifest:
    """Write the owners' labels as a calibration set (``runs/``, ``labels.jsonl``, manifest)."""
    owners_manifest(traits)  # no labels: refused before anything is written
    items = owner_items(runs, labels)
    write_items(items, out)
    content = (out / "labels.jsonl").read_bytes()
    manifest = owners_manifest(traits, content_id=hashlib.sha1(content).hexdigest())
    text = yaml.safe_dump(manifest.model_dump(mode="json"), sort_keys=False, allow_unicode=True)
    (out / MANIFEST_FILE).write_text(text, encoding="utf-8")
    return manifest


def import_labels(manifest: CalibrationManifest, path: Path) -> list[CalibrationItem]:
    """The ``labels`` importer: ``runs/<run_id>.json`` and ``labels.jsonl`` under ``path``."""
    folder = path.parent if path.is_file() else path
    items = []
    for line in read_jsonl(folder / "labels.jsonl", ItemLabels):
        run_file = folder / "runs" / f"{line.run_id}.json"
        try:
            run = parse_run_json(run_file.read_bytes(), source=str(run_file))
        except FileNotFoundError:
            raise CalibrationSetError(f"{run_file}: file not found") from None
        items.append(CalibrationItem(item_id=line.item_id, run=run, labels=line.labels))
    return items
