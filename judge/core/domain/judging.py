"""The judge's passes and per-trait results."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from judge.core.domain.outputs import Output
from judge.core.domain.passes import PassDecision
from judge.core.domain.rubric import PackKind

#: What a judge pass counts with: the sampled score, or the expected value of its grid
#: distribution (docs/judge-signal.md). ``score_mode`` in code; the CLI flag ``--pass-score``,
#: the setting ``JUDGE_PASS_SCORE`` and stored JSON keys (``pass_score``) keep their names.
ScoreMode = Literal["sampled", "expected"]
SCORE_MODES: tuple[ScoreMode, ...] = ("sampled", "expected")
#: How a judge's reply was held to the verdict's shape (docs/scoring.md, "Reply format"): OpenAI's
#: strict ``json_schema``, ``json_object`` with the schema beside it (llama-cpp-python), the
#: embedded judge's ``grammar``, or ``none`` (the prompt alone asks for the shape).
ReplyFormat = Literal["json_schema", "json_object", "grammar", "none"]

#: One judge pass of a run: (seat, trait, pass index).
SeatPassKey = tuple[str, str, int]
ParseStatus = Literal["ok", "unparseable", "out_of_range", "refused", "backend_error"]

#: Which variance the product reports everywhere: the sample variance (n - 1 denominator).
VARIANCE_KIND = "sample (n-1 denominator)"


class JudgeCall(Output):
    """One call to a judge, kept with every pass (docs/export.md, "The passes table"). A pass
    lists it first, ``class SomePass(JudgeCall, Answer)``: pydantic orders fields from the last
    base, so ``Answer``'s come first and stored passes keep their key order."""

    raw_output: str = ""
    model: str
    prompt_tokens: int | None = Field(default=None, description="as the provider counted them")
    cached_prompt_tokens: int | None = Field(
        default=None, description="of the prompt tokens, those read from the provider's cache"
    )
    completion_tokens: int | None = None
    cost_usd: float | None = Field(default=None, description="None where no price is known")
    latency_ms: float = 0.0
    attempts: int = Field(default=1, description="calls made, retries included")
    parse_status: ParseStatus
    unscored_reason: str | None = None


class _PassAnswer(Output):
    """What the judge answered on one trait of one seat."""

    trait: str
    index: int = Field(ge=0)
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    rationale: str = ""
    cited_turns: list[int] = Field(default_factory=list)


class JudgePass(JudgeCall, _PassAnswer):
    """One independent judge call for one trait of one seat. Stored whole."""

    sampled_score: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="the score the judge wrote; `score` is it when this is None",
    )
    expected_score: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="expected value of score_distribution (docs/judge-signal.md)",
    )
    score_distribution: list[float] | None = Field(
        default=None,
        description="probabilities on the grid 0.0, 0.1, ..., 1.0, from token log-probabilities",
    )
    score_entropy_bits: float | None = Field(default=None, ge=0.0)
    distribution_partial: bool = Field(
        default=False,
        description="part of the distribution was unseen and put on 0.0 (docs/judge-signal.md)",
    )
    structured_output: bool = Field(
        default=False, description="the verdict schema was enforced by the backend"
    )
    reply_format: ReplyFormat | None = Field(
        default=None,
        description="how the backend enforced the verdict's shape (docs/scoring.md, \"Reply "
        'format"): json_schema, json_object (with the schema), grammar (the embedded '
        "judge), none; null when the backend did not say (a scripted judge, or a pass stored "
        "before the format was recorded)",
    )
    request_choices: int = Field(
        default=1,
        ge=1,
        description="the choices the request this pass came from answered: more than 1 when "
        "the passes of its trait shared one request (OpenAI's n; docs/scoring.md)",
    )

    @property
    def shared(self) -> bool:
        """The pass was one of several choices of a request its trait's passes shared."""
        return self.request_choices > 1

    @property
    def written_score(self) -> float | None:
        """The score the judge wrote (the sampled score), whatever the pass counts with."""
        return self.sampled_score if self.sampled_score is not None else self.score

    @property
    def scored(self) -> bool:
        return self.score is not None


class JudgeStats(Output):
    """One judge of a panel on one trait: its passes' scores, mean and variance."""

    model: str
    pass_scores: list[float]
    mean: float | None
    variance: float | None
    n_scored: int
    n_unscored: int


class TraitResult(Output):
    """Per trait: the pass scores, their mean and variance, and what could not be scored."""

    trait: str
    pack: PackKind
    pass_scores: list[float]
    mean: float | None
    variance: float | None
    variance_kind: str = VARIANCE_KIND
    n_passes: int
    n_scored: int
    n_unscored: int
    n_identical: int = Field(description="size of the largest group of byte-identical raw replies")
    floor: int
    complete: bool = Field(description="true when at least `floor` passes were scored")
    unscored_reasons: list[str] = Field(default_factory=list)
    rubric_version: int
    rubric_hash: str
    rubric_source: Literal["builtin", "custom"]
    rubric: dict[str, str]
    raw_mean: float | None = Field(
        default=None,
        description="the judge's mean before the trait's adopted calibration map, whose value "
        "is ``mean`` (docs/alignment.md); None when the trait has no map; owner-only",
    )
    calibration_map_hash: str | None = Field(
        default=None, description="the hash of the calibration map applied to ``mean``"
    )
    passes: list[JudgePass] = Field(default_factory=list)
    score_mode: ScoreMode = Field(
        default="sampled",
        description="what each pass counts with: the sampled score or the expected value",
    )
    sampled_mean: float | None = Field(default=None, description="mean of the sampled scores")
    expected_mean: float | None = Field(
        default=None,
        description="mean of the expected values, over passes that have a distribution",
    )
    mean_entropy_bits: float | None = Field(
        default=None, description="mean within-pass entropy over the grid"
    )
    n_with_distribution: int = 0
    score_note: str | None = Field(
        default=None,
        description="why the expected value is missing or partial (a fallback to sampled)",
    )
    judges: list[JudgeStats] = Field(
        default_factory=list,
        description="a judge panel: each judge's own passes summarised (empty for one judge)",
    )
    adaptive: PassDecision | None = Field(
        default=None,
        description="under adaptive passes: how many passes the trait took and why "
        "(docs/scoring.md); None for a fixed count",
    )


class PanelAgreement(Output):
    """How the judges of a panel agree on one seat: Krippendorff's alpha over its traits."""

    judges: list[str]
    alpha_interval: float | None = Field(
        description="Krippendorff's alpha (interval) with traits as units and judges' means as ratings; "
        "None when there is nothing to disagree about"
    )
    n_traits: int
    largest_disagreement_trait: str | None = None
    largest_disagreement: float | None = Field(
        default=None, description="highest minus lowest judge mean"
    )
    largest_disagreement_means: dict[str, float] = Field(default_factory=dict)
