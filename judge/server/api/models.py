"""The API's own response models (``*Public``): a service's value under its public name,
answered as ``XPublic.model_validate(value, from_attributes=True)`` (a list: :func:`public_list`).
Docstrings and field descriptions here are what the OpenAPI document shows."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TypeVar

from pydantic import BaseModel, Field

from judge.core.domain.comparison import AgentComparison
from judge.core.domain.review import SafetyReview, ScorecardAttempt
from judge.core.domain.scorecard import Scorecard
from judge.core.scoring.leaderboard import Leaderboard
from judge.core.scoring.pairwise_board import PairwiseLeaderboard
from judge.core.scoring.stability import StabilityReport
from judge.server.service.align import Alignment
from judge.server.service.card_views import AgentScorecard
from judge.server.service.coaching import SeatCoaching
from judge.server.service.config_views import ConfigAudit, ConfigEntry, Era
from judge.server.service.jobqueue.status import LiveWorker, QueueStatus
from judge.server.service.pairwise import PairwiseComparisonResult
from judge.server.service.rubrics import ActiveRubric, CustomRubric, RubricHistory, Rubrics
from judge.server.service.run_listing import RunSummary
from judge.server.service.submissions import Submission
from judge.server.service.views import RunProgress

P = TypeVar("P", bound=BaseModel)


def public_list(model: type[P], values: Iterable[BaseModel]) -> list[P]:
    """A list answer: each of a service's ``values`` under its public name ``model``."""
    return [model.model_validate(value, from_attributes=True) for value in values]


class HealthPublic(BaseModel):
    status: str
    version: str


class ScorecardAttemptPublic(ScorecardAttempt):
    """An earlier scorecard of the run, kept when a rescore replaced it."""


class SafetyReviewPublic(SafetyReview):
    """Where a run stands in safety review."""

    earlier_scorecards: list[ScorecardAttemptPublic]


class OwnerScorecardPublic(Scorecard):
    """The owner scorecard and, beside it, where the run stands in safety review."""

    safety_review: SafetyReviewPublic


class AgentScorecardPublic(AgentScorecard):
    """The agent view of a scored run: the key's own seat only."""


class RunPublic(RunProgress):
    """A run's scoring status."""


class RunSummaryPublic(RunSummary):
    """One run in a list: what it is, where it stands, and where to read it."""


class SubmissionPublic(Submission):
    """A submission as stored; ``finalization`` holds the decision once it is finalized."""


class CoachingPublic(SeatCoaching):
    """Coaching notes for the key's own seat; the first item is always the safety preamble."""


class ConfigEntryPublic(ConfigEntry):
    pass


class ConfigAuditPublic(ConfigAudit):
    pass


class EraPublic(Era):
    pass


class CustomRubricPublic(CustomRubric):
    pass


class ActiveRubricPublic(ActiveRubric):
    pass


class RubricsPublic(Rubrics):
    custom: list[CustomRubricPublic] = Field(
        description="live custom rubrics (newest version per trait)"
    )
    active: list[ActiveRubricPublic] = Field(
        description="the rubric set the next run is scored with"
    )


class RubricHistoryPublic(RubricHistory):
    current: CustomRubricPublic
    versions: list[CustomRubricPublic]


class WorkerPublic(LiveWorker):
    pass


class QueuePublic(QueueStatus):
    """Scoring at a glance."""

    workers: list[WorkerPublic] = Field(description="job-queue workers, newest heartbeat first")


class PairwiseComparisonPublic(PairwiseComparisonResult):
    """Every matched pair's verdict (both orders, every pass), the judge's position bias and
    the two agents' ratings; ``n_judged`` pairs were judged by this request, the rest came
    from the store."""


class StabilityPublic(StabilityReport):
    """Stability verdicts per trait and per objective, with the spreads behind them."""


class LeaderboardPublic(Leaderboard):
    """A scenario's ranked board and, apart, its self-hosted facilitator class."""


class PairwiseLeaderboardPublic(PairwiseLeaderboard):
    """A scenario's pairwise ratings on one trait: ranked and unranked fits per pairwise era."""


class ComparisonPublic(AgentComparison):
    """Per-pair outcome differences, the paired test, and the runs that could not be paired."""


class IngestKeyPublic(BaseModel):
    """An ingest key as its owner sees it: never the secret, only its prefix."""

    prefix: str
    source: str
    label: str | None
    created_by: str
    created_at: datetime
    revoked_at: datetime | None


class RuleRunPublic(BaseModel):
    """A run an online evaluation rule made from a live trace."""

    run_id: str
    rule_version: int
    source: str
    trace_id: str
    traits: list[str]
    judge: str | None
    created_at: datetime


class AlignmentPublic(Alignment):
    """A `judge align` proposal and, once adopted, what was adopted, by whom, and the eras
    around it (owner)."""
