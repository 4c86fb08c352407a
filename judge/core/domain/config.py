"""Runtime-configurable measurement settings (the `platform_config` keys of docs/scoring.md)."""

from __future__ import annotations

from typing import Any

from pydantic import (
    AliasChoices,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from judge.core.domain.judging import ScoreMode
from judge.core.domain.outputs import Strict
from judge.core.domain.passes import PassPolicy

#: The fewest judge passes per trait the platform allows: fewer cannot support a stable mean.
MIN_PASSES_FLOOR = 5
#: Reward weights stay in this range so no turn's reward can overflow to infinity.
WEIGHT_BOUND = 1_000.0


class DenoiseConfig(Strict):
    """`academy_eval_judge_denoise`: passes per trait = max(n_runs, min_n_runs)."""

    temperature: float = Field(default=0.0, ge=0.0, le=0.0)
    min_n_runs: int = Field(default=MIN_PASSES_FLOOR, ge=1, le=50)
    n_runs: int = Field(default=5, ge=1, le=50)
    adaptive: PassPolicy | None = Field(
        default=None,
        description="adaptive passes (docs/scoring.md): `floor` on every trait, up to `max` where "
        "the passes range over more than `spread`; given as `passes: {floor, max, spread}`",
    )

    @model_validator(mode="before")
    @classmethod
    def _passes_shorthand(cls, data: Any) -> Any:
        """``passes: 7`` is ``n_runs: 7``; ``passes: {floor, max, spread}`` an adaptive policy."""
        if not isinstance(data, dict) or "passes" not in data:
            return data
        data = dict(data)
        passes = data.pop("passes")
        if isinstance(passes, dict | PassPolicy):
            policy = PassPolicy.model_validate(passes)
            data.setdefault("n_runs", policy.floor)
            data["adaptive"] = policy if policy.adaptive else None
        else:
            data["n_runs"] = passes
        return data

    @model_validator(mode="after")
    def _policy_matches_floor(self) -> DenoiseConfig:
        policy = self.adaptive
        if policy is not None and (policy.floor != self.n_runs or policy.floor < self.min_n_runs):
            raise ValueError(
                f"passes: floor ({policy.floor}) must equal n_runs ({self.n_runs}) and be at "
                f"least min_n_runs ({self.min_n_runs})"
            )
        return self

    @model_serializer(mode="wrap")
    def _without_fixed_policy(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Fixed passes serialise as they did before adaptive passes existed (stored values,
        audits and answers unchanged)."""
        data: dict[str, Any] = handler(self)
        if data.get("adaptive", 0) is None:
            del data["adaptive"]
        return data

    @property
    def passes(self) -> int:
        return max(self.n_runs, self.min_n_runs)

    @property
    def policy(self) -> PassPolicy:
        """The passes every trait gets as a policy (a fixed count is ``max == floor``)."""
        return self.adaptive or PassPolicy(floor=self.passes, max=self.passes, spread=0.0)


class PlatformDenoiseConfig(DenoiseConfig):
    """The denoise setting as the platform may set it: never under 5 passes (library callers
    may use fewer), or a trait would read ``complete`` on a single pass."""

    min_n_runs: int = Field(
        default=MIN_PASSES_FLOOR,
        ge=MIN_PASSES_FLOOR,
        le=50,
        description=f"the floor of passes per trait; {MIN_PASSES_FLOOR} at the least",
    )


class ParticipationConfig(Strict):
    """`academy_eval_participation`: floors below which a seat's run is gated."""

    min_player_messages: int = Field(default=5, ge=0)
    min_actions_per_turn: float = Field(default=0.3, ge=0.0)


class RewardWeights(Strict):
    """`eval_reward_weights`: the per-turn reward's weights."""

    w_check_pass: float = Field(default=0.1, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)
    w_check_fail: float = Field(default=-0.05, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)
    w_condition_flip: float = Field(default=1.0, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)
    w_progress: float = Field(default=0.5, ge=-WEIGHT_BOUND, le=WEIGHT_BOUND)


class MeasurementSettings(Strict):
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
