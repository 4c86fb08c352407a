"""The judge's passes and per-trait results."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: One judge pass of a run: (seat, trait, pass index).
SeatPassKey = tuple[str, str, int]
ParseStatus = Literal["ok", "unparseable", "out_of_range", "refused", "backend_error"]

#: Which variance the product reports everywhere: the sample variance (n - 1 denominator).
VARIANCE_KIND = "sample (n-1 denominator)"


class JudgePass(BaseModel):
    """One independent judge call for one trait of one seat. Stored whole."""

    model_config = ConfigDict(extra="forbid")

    trait: str
    index: int = Field(ge=0)
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    rationale: str = ""
    cited_turns: list[int] = Field(default_factory=list)
    raw_output: str = ""
    model: str
    prompt_tokens: int | None = None
    cached_prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    latency_ms: float = 0.0
    attempts: int = 1
    parse_status: ParseStatus
    unscored_reason: str | None = None

    @property
    def scored(self) -> bool:
        return self.score is not None


class TraitResult(BaseModel):
    """Per trait: the pass scores, their mean and variance, and what could not be scored."""

    model_config = ConfigDict(extra="forbid")

    trait: str
    pack: Literal["capability", "safety"]
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
    passes: list[JudgePass] = Field(default_factory=list)
