"""What `judge calibrate` reports: per trait, the judge against the humans and the humans' ceiling."""

from __future__ import annotations

from pydantic import Field

from judge.core.domain.interval import Interval
from judge.core.domain.outputs import Output


class JudgeAgreement(Output):
    """The judge's mean score against a human reference (the panel mean unless stated)."""

    spearman: Interval
    kendall_tau_b: Interval
    quadratic_weighted_kappa: float | None = Field(
        description="both sides snapped to the label's scale points"
    )
    mae: float | None
    bias: float | None = Field(description="mean(judge - human); positive: the judge scores higher")


class Ceiling(Output):
    """Leave-one-out: each panel rater against the mean of the others, averaged over raters."""

    measurable: bool
    n_raters: int
    spearman: float | None
    kendall_tau_b: float | None
    quadratic_weighted_kappa: float | None
    mae: float | None
    note: str | None = None


class Alpha(Output):
    nominal: float | None
    ordinal: float | None
    interval: float | None


class PassSpreadOut(Output):
    passes_per_item: int
    mean_sd: float | None = Field(description="mean within-item sample SD (n-1) of the pass scores")
    max_sd: float | None
    mean_range: float | None
    items_identical: int = Field(description="items whose scored passes all gave the same score")
    items: int
    unscored_passes: int


class DenoisingOut(Output):
    statistic: str = "spearman"
    single_pass: float | None = Field(
        description="mean over pass indices of the one-pass statistic"
    )
    averaged: float | None = Field(description="the statistic of the mean of passes")
    gain: float | None


class ReferenceAgreement(Output):
    """A non-panel rater group (e.g. one expert) as another reference."""

    reference: str
    judge: JudgeAgreement
    panel_kappa: float | None = Field(
        description="panel mean snapped to the scale vs this reference, quadratic-weighted kappa"
    )


class ItemPoint(Output):
    item_id: str
    seat: str
    judge: float | None = Field(description="mean of the scored passes")
    human: float | None = Field(description="mean of the panel's ratings")
    pass_sd: float | None = Field(description="sample SD (n-1) of the scored passes")


class TraitAgreement(Output):
    trait: str
    label: str
    question: str
    scale_level: str
    scale_points: int
    n_items: int = Field(description="labelled seats judged (targets)")
    n_judged: int = Field(description="targets with at least one scored pass")
    judge: JudgeAgreement
    ceiling: Ceiling
    alpha_humans: Alpha
    alpha_humans_and_judge: Alpha
    passes: PassSpreadOut
    denoising: DenoisingOut
    references: list[ReferenceAgreement] = Field(default_factory=list)
    objective_baseline_spearman: float | None = Field(
        default=None, description="the seat's partial-credit share (no model) against the humans"
    )
    note: str = ""
    points: list[ItemPoint] = Field(default_factory=list)


class Disagreement(Output):
    item_id: str
    seat: str
    trait: str
    judge_score: float | None
    human_score: float | None
    difference: float
    judge_verdict: str
    human_verdict: str


class SetInfo(Output):
    name: str
    title: str
    citation: str
    licence: str
    source: str


class CalibrationReport(Output):
    set: SetInfo
    judge_model: str
    judge_note: str | None
    slice: str
    n_items: int
    passes_per_trait: int
    traits: list[TraitAgreement]
    disagreements: list[Disagreement]
    disagreement_threshold: float
    pass_score: str = Field(
        default="sampled",
        description="what each pass counted with: the written score or the expected value",
    )
