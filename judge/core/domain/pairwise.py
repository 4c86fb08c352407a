"""Pairwise judging: which of two seats behaved better on one trait, asked in both orders
(docs/scoring.md, "Pairwise judging")."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import Field

from judge.core.domain.cost import Cost
from judge.core.domain.interval import Interval
from judge.core.domain.judging import JudgeCall
from judge.core.domain.outputs import Output
from judge.core.domain.run import TranscriptEvent

#: The two orders a pair is shown in: A first, then B first.
Order = Literal["ab", "ba"]
ORDERS: tuple[Order, Order] = ("ab", "ba")
#: What a judge may answer: the seat shown first, the one shown second, or neither.
Position = Literal["first", "second", "neither"]
POSITIONS: tuple[Position, ...] = ("first", "second", "neither")
#: A verdict in the pair's own terms: seat A, seat B, or neither better.
Winner = Literal["a", "b", "neither"]
#: The pair's verdict over both orders; ``tie`` when the orders disagree or both say neither.
PairOutcome = Literal["a", "b", "tie"]


class PairSide(Output):
    """One seat of a pair, with the transcript as the judge reads it (screened: judge-directed
    spans withheld, docs/integrity.md)."""

    run_id: str
    seat: str
    agent_id: str
    transcript: list[TranscriptEvent]
    labels: dict[str, str] = Field(
        default_factory=dict,
        exclude=True,
        description="the platform label of every seat of the run, by seat (the scenario's role "
        "names, else Seat A, Seat B, ...; docs/integrity.md): how the prompt names them. Not "
        "stored or answered: it is the prompt's, like the transcript",
    )


class PairKey(Output):
    """What makes two seats comparable: the same scenario, seed and adversary (matched runs),
    or two seats of one run."""

    scenario_id: str
    seed: int | None
    adversary_config: str | None


class PairToJudge(NamedTuple):
    """Two seats to compare and what matched them."""

    side_a: PairSide
    side_b: PairSide
    key: PairKey


class _PairAnswer(Output):
    """What the judge answered on one order of a pair."""

    order: Order
    index: int = Field(ge=0)
    position: Position | None = Field(description="what the judge answered; None when unscored")
    winner: Winner | None = Field(description="the answer in the pair's terms (A, B, neither)")
    rationale: str = ""
    cited_turns_a: list[int] = Field(default_factory=list)
    cited_turns_b: list[int] = Field(default_factory=list)


class PairwisePass(JudgeCall, _PairAnswer):
    """One judge call on one order of a pair; stored whole, like a single-seat pass."""


class OrderVerdict(Output):
    """The passes of one order, summed up: the most-voted answer, ``neither`` on a tied vote.

    Attributes:
        winner: None when fewer than ``floor`` passes were scored.
    """

    order: Order
    winner: Winner | None
    first_is: Literal["a", "b"]
    votes_a: int
    votes_b: int
    votes_neither: int
    n_passes: int
    n_scored: int
    floor: int
    complete: bool


class PairVerdict(Output):
    """Both orders of one pair on one trait, and the verdict over them.

    Attributes:
        outcome: ``a``/``b`` when both orders name that seat; ``tie`` when they disagree or
            neither order names a seat; None when an order is incomplete.
        flipped: the orders named different seats, or one named a seat and the other
            neither; None when an order is incomplete.
    """

    key: PairKey
    era_id: str = Field(description="the pairwise era: judge, pairwise prompt, rubric, passes")
    trait: str
    judge_model: str
    prompt_version: int
    side_a: PairSide
    side_b: PairSide
    orders: list[OrderVerdict]
    outcome: PairOutcome | None
    flipped: bool | None
    passes: list[PairwisePass]

    def without_transcripts(self) -> PairVerdict:
        """The verdict as stored and answered: the transcripts stay with their runs."""
        return self.model_copy(
            update={
                "side_a": self.side_a.model_copy(update={"transcript": []}),
                "side_b": self.side_b.model_copy(update={"transcript": []}),
            }
        )


class PositionBias(Output):
    """How much one judge's verdicts on one trait depend on the order of showing.

    Attributes:
        flip_rate: flipped pairs over decisive pairs (at least one order named a seat).
        first_position_rate: among order verdicts that named a seat, the share that named
            the seat shown first (0.5 for a judge without position bias).
    """

    judge_model: str
    trait: str
    n_pairs: int
    n_decisive: int
    n_flipped: int
    flip_rate: float | None
    flip_interval: Interval | None
    n_named: int
    n_first: int
    first_position_rate: float | None
    first_position_interval: Interval | None


class Rating(Output):
    """One agent's Bradley-Terry rating (log-strength, mean 0) with its bootstrap interval."""

    rank: int | None
    agent_id: str
    rating: float
    low: float | None
    high: float | None
    wins: int
    losses: int
    ties: int
    n_pairs: int


class PairwiseRatings(Output):
    """A Bradley-Terry fit over the pair verdicts of one era and scenario."""

    scenario_id: str
    era_id: str
    ratings: list[Rating]
    n_pairs: int
    n_bootstrap: int
    confidence: float
    tie_rule: str


class UnpairedSide(Output):
    side: Literal["a", "b"]
    run_id: str
    reason: str


class PairwiseComparison(Output):
    """``judge compare --pairwise``: verdicts, the judge's position bias and the ratings."""

    label_a: str
    label_b: str
    trait: str
    judge_model: str
    era_id: str
    passes_per_order: int
    pairs: list[PairVerdict]
    bias: PositionBias
    ratings: list[PairwiseRatings]
    cost: Cost = Field(description="what the pairs' judge calls cost (docs/service.md)")
    unpaired: list[UnpairedSide] = Field(default_factory=list)
