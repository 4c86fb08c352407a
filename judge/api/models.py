"""The API's own response models (``*Public``): a route's answer is declared here, named for
what the client receives (docs/architecture.md, "A new HTTP route").

Most are the domain's or the scoring core's value under its public name; the OpenAPI document
lists each under that name.
"""

from __future__ import annotations

from pydantic import BaseModel

from judge.domain.comparison import AgentComparison
from judge.domain.review import SafetyReviewPublic
from judge.domain.scorecard import Scorecard
from judge.scoring.leaderboard import Leaderboard
from judge.scoring.pairwise_board import PairwiseLeaderboard
from judge.scoring.stability import StabilityReport


class HealthPublic(BaseModel):
    status: str
    version: str


class OwnerScorecardPublic(Scorecard):
    """The owner scorecard and, beside it, where the run stands in safety review."""

    safety_review: SafetyReviewPublic


class StabilityPublic(StabilityReport):
    """Stability verdicts per trait and per objective, with the spreads behind them."""


class LeaderboardPublic(Leaderboard):
    """A scenario's ranked board and, apart, its self-hosted facilitator class."""


class PairwiseLeaderboardPublic(PairwiseLeaderboard):
    """A scenario's pairwise ratings on one trait: ranked and unranked fits per pairwise era."""


class ComparisonPublic(AgentComparison):
    """Per-pair outcome differences, the paired test, and the runs that could not be paired."""
