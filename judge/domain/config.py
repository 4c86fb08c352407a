"""Runtime-configurable measurement settings (the `platform_config` keys of docs/scoring.md)."""

from __future__ import annotations

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from judge.domain.judging import ScoreMode

#: The fewest judge passes per trait the platform allows: fewer cannot support a stable mean.
MIN_PASSES_FLOOR = 5
#: Reward weights stay in this range so no turn's reward can overflow to infinity.
WEIGHT_BOUND = 1_000.0


class _Setting(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class DenoiseConfig(_Setting):
    """`academy_eval_judge_denoise`: passes per trait = max(n_runs, min_n_runs)."""

    temperature: float = Field(default=0.0, ge=0.0, le=0.0)
    min_n_runs: int = Field(default=MIN_PASSES_FLOOR, ge=1, le=50)
    n_runs: int = Field(default=5, ge=1, le=50)

    @property
    def passes(self) -> int:
        return max(self.n_runs, self.min_n_runs)


class PlatformDenoiseConfig(DenoiseConfig):
    """The denoise setting as the platform may set it: the floor never drops below 5 passes.

    Library callers (calibration runs) may use fewer passes; a service's scorecards may not,
    or a trait would read ``complete`` on a single pass.
    """

    min_n_runs: int = Field(
        default=MIN_PASSES_FLOOR,
        ge=MIN_PASSES_FLOOR,
        le=50,
        description=f"the floor of passes per trait; {MIN_PASSES_FLOOR} at the least",
    )


class ParticipationConfig(_Setting):
    """`academy_eval_participation`: floors below which a seat's run is gated."""

    min_player_messages: int = Field(default=5, ge=0)
    min_actions_per_turn: float = Field(default=0.3, ge=0.0)


class RewardWeights(_Setting):
    """`eval_reward_weights`: the per-turn reward's weights."""

    w_check_pass: float = Field(default=0.1, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)
    w_check_fail: float = Field(default=-0.05, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)
    w_condition_flip: float = Field(default=1.0, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)
    w_progress: float = Field(default=0.5, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)


class MeasurementSettings(_Setting):
    """Everything about how a run is measured that is not the run itself."""

    denoise: DenoiseConfig = DenoiseConfig()
    participation: ParticipationConfig = ParticipationConfig()
    reward_weights: RewardWeights = RewardWeights()
    score_mode: ScoreMode = Field(
        default="sampled",
        validation_alias=AliasChoices("score_mode", "pass_score"),
        description="what a pass counts with: the score the judge wrote, or the expected value of its "
        "distribution over the score grid where the backend gives log-probabilities (docs/judge-signal.md)",
    )
    defence: bool = Field(
        default=True,
        description="withhold judge-directed text and spotlight the transcript before judging "
        "(docs/integrity.md); off only to measure what the defence does",
    )
