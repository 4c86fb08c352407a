"""What scoring a run returns: per seat objectives, traits, composite, gates, era."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from judge.core.domain.checks import StateOutcome
from judge.core.domain.cost import Cost
from judge.core.domain.integrity import SeatTamper
from judge.core.domain.judging import PanelAgreement, ReplyFormat, ScoreMode, TraitResult
from judge.core.domain.outputs import Output
from judge.core.domain.status import LeaderboardClass


class PartialCredit(Output):
    per_condition: dict[str, float]
    total: float
    max_possible: float


class Objectives(Output):
    """Binary win conditions of one seat, with weighted partial credit beside them."""

    conditions: dict[str, bool]
    met_count: int
    total_count: int
    objective_met_rate: float | None
    partial_credit: PartialCredit


class ParticipationResult(Output):
    participation_gated: bool
    player_messages: int
    actions: int
    turns: int
    actions_per_turn: float
    reasons: list[str] = Field(default_factory=list)


class MeasurementEra(Output):
    """The identity of the measurement stack; results compare only within one era."""

    era_id: str
    judge_model: str
    prompt_version: int
    rubric_hashes: dict[str, str]
    denoise: dict[str, Any]
    reward_weights: dict[str, float]
    scoring_version: int
    pass_score: ScoreMode = "sampled"
    decoders: dict[str, str] = Field(
        default_factory=dict,
        description="identity of each in-process decode (embedded judge): grammar and weights",
    )
    integrity: dict[str, str] = Field(
        default_factory=dict,
        description="the score-integrity defence: detector version and spotlighting "
        "(docs/integrity.md)",
    )
    shared_passes: bool = Field(
        default=False,
        description="passes of a trait went as one request with n choices, sharing the prompt "
        '(docs/scoring.md, "Passes"); false: every pass was a request of its own',
    )
    reply_format: dict[str, list[str]] = Field(
        default_factory=dict,
        description="per judge model, the reply formats its passes were sent in (json_schema, "
        "json_object, grammar, none); present only when some judge's passes went in a format "
        'other than the one its id declares (docs/scoring.md, "Reply format")',
    )


class JudgeParseRate(Output):
    """One judge model's passes on a card: how many held no readable verdict."""

    passes: int
    unparseable: int
    unparseable_rate: float
    structured_passes: int = Field(description="passes whose verdict schema the backend enforced")
    shared_passes: int = Field(
        default=0,
        description="passes that came as one of several choices of a request their trait's "
        'passes shared (docs/scoring.md, "Passes"); the rest were requests of their own',
    )
    reply_formats: dict[ReplyFormat, int] = Field(
        default_factory=dict,
        description="passes per reply format the backend sent them in (json_schema, json_object, "
        'grammar, none; docs/scoring.md, "Reply format"), the most used first; passes whose '
        "backend did not say (a scripted judge, passes stored before formats were recorded) "
        "are not counted",
    )


class SeatResults(Output):
    """What every view of a seat's card shows: the seat, its agent, the objectives, the traits
    counted for it and their composite. Nothing owner-only: the owner's seat card adds the
    safety block, panel, integrity findings and full cost; the agent's adds its own cost."""

    seat: str
    agent_id: str
    objectives: Objectives
    traits: dict[str, TraitResult]
    composite: float | None
    composite_note: str | None = None


class SeatScorecard(SeatResults):
    safety_block: dict[str, TraitResult] | None = None
    participation: ParticipationResult
    panel: PanelAgreement | None = Field(
        default=None, description="a judge panel's agreement on this seat"
    )
    tamper: SeatTamper | None = Field(
        default=None,
        description="judge-directed text found in the seat's own events and withheld from the "
        "judge (docs/integrity.md); owner-only",
    )
    cost: Cost | None = Field(
        default=None, description="what judging this seat cost (docs/service.md)"
    )

    @property
    def participation_gated(self) -> bool:
        return self.participation.participation_gated

    @property
    def every_trait(self) -> dict[str, TraitResult]:
        """The seat's traits and its safety block (owner-only) in one mapping."""
        return {**self.traits, **(self.safety_block or {})}


class Scorecard(Output):
    """The owner view of a scored run: every scored seat, safety blocks included."""

    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None
    seats: dict[str, SeatScorecard]
    participation_gated: bool
    ranked_eligible: bool
    leaderboard_class: LeaderboardClass = Field(
        description="ranked; self_hosted_facilitator (a custom rubric); self_reported (submitted with an agent key)"
    )
    judge_model: str
    judge_note: str | None = None
    prompt_version: int
    measurement_era: MeasurementEra
    state_outcome: StateOutcome | None = Field(
        default=None,
        description="state checks, hard rules, verdict and run summary, when the scenario declares checks",
    )
    pass_score: ScoreMode = Field(
        default="sampled", description="what each judge pass counts with (docs/judge-signal.md)"
    )
    judge_parse: dict[str, JudgeParseRate] = Field(
        default_factory=dict, description="per judge model: passes and the unparseable rate"
    )
    cost: Cost | None = Field(
        default=None,
        description="what judging the run cost, beside its estimate (docs/service.md, "
        '"Cost and budgets")',
    )

    def to_rows(self, table: Literal["traits", "passes"] = "traits") -> list[dict[str, Any]]:
        """The card as table rows (docs/export.md): one per seat and trait, or per judge pass."""
        from judge.core.domain.rows import pass_rows, trait_rows

        return trait_rows(self) if table == "traits" else pass_rows(self)
