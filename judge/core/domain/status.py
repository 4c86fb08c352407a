"""The fixed words a stored run or submission carries (its status, its leaderboard class):
the one home of these words and of the class rule."""

from __future__ import annotations

from typing import Literal

RunStatus = Literal["queued", "scoring", "scored", "not_scored"]
RUN_STATUSES: tuple[RunStatus, ...] = ("queued", "scoring", "scored", "not_scored")
#: A run in one of these is still waiting for (or in) scoring.
UNFINISHED_RUN_STATUSES: tuple[RunStatus, ...] = ("queued", "scoring")
#: A run in one of these has its answer: a scorecard or the reason it has none.
FINAL_RUN_STATUSES: tuple[RunStatus, ...] = ("scored", "not_scored")

FinalSubmissionStatus = Literal["complete", "incomplete"]
#: A submission in one of these is finalized and counts on the leaderboards.
FINALIZED_SUBMISSION_STATUSES: tuple[FinalSubmissionStatus, ...] = ("complete", "incomplete")

#: ``online``: a run an online evaluation rule made of a live trace (docs/integrations.md), never
#: ranked beside scenario runs.
LeaderboardClass = Literal["ranked", "self_hosted_facilitator", "self_reported", "online"]


def leaderboard_class(*, custom_rubric: bool, self_reported: bool) -> LeaderboardClass:
    """The class of a run or submission; self-reported (an agent key) wins over a custom
    rubric, as the stronger reason a result is not ranked."""
    if self_reported:
        return "self_reported"
    return "self_hosted_facilitator" if custom_rubric else "ranked"


def stored_class(stored: str) -> LeaderboardClass:
    """A class read back from the store; anything unknown is treated as not ranked."""
    known: tuple[LeaderboardClass, ...] = ("ranked", "self_reported", "online")
    return next((c for c in known if c == stored), "self_hosted_facilitator")
