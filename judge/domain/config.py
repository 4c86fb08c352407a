"""Runtime-configurable measurement settings (the `platform_config` keys of docs/scoring.md)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Setting(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DenoiseConfig(_Setting):
    """`academy_eval_judge_denoise`: passes per trait = max(n_runs, min_n_runs)."""

    temperature: float = Field(default=0.0, ge=0.0, le=0.0)
    min_n_runs: int = Field(default=5, ge=1, le=50)
    n_runs: int = Field(default=5, ge=1, le=50)

    @property
    def passes(self) -> int:
        return max(self.n_runs, self.min_n_runs)


class ParticipationConfig(_Setting):
    """`academy_eval_participation`: floors below which a seat's run is gated."""

    min_player_messages: int = Field(default=5, ge=0)
    min_actions_per_turn: float = Field(default=0.3, ge=0.0)


class RewardWeights(_Setting):
    """`eval_reward_weights`: the per-turn reward's weights."""

    w_check_pass: float = 0.1
    w_check_fail: float = -0.05
    w_condition_flip: float = 1.0
    w_progress: float = 0.5


class MeasurementSettings(_Setting):
    """Everything about how a run is measured that is not the run itself."""

    denoise: DenoiseConfig = DenoiseConfig()
    participation: ParticipationConfig = ParticipationConfig()
    reward_weights: RewardWeights = RewardWeights()
