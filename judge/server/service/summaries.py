"""The owners' reads over many runs, as the console takes them. The console reads through the
service, never the store (docs/architecture.md); these reads need no rule beyond their queries,
so the store's functions are offered as they are."""

from __future__ import annotations

from judge.server.store.scorecards import get_scorecard
from judge.server.store.summaries import (
    CostCursor,
    Cursor,
    JudgeRule,
    ReviewQueueCursor,
    RunFilters,
    RunListing,
    agents_of,
    count_flagged_runs,
    count_runs,
    distinct_values,
    flagged_runs,
    list_runs,
    list_runs_by_cost,
)
from judge.server.store.tables import as_utc

__all__ = [
    "CostCursor",
    "Cursor",
    "JudgeRule",
    "ReviewQueueCursor",
    "RunFilters",
    "RunListing",
    "agents_of",
    "as_utc",
    "count_flagged_runs",
    "count_runs",
    "distinct_values",
    "flagged_runs",
    "get_scorecard",
    "list_runs",
    "list_runs_by_cost",
]
