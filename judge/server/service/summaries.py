"""The owners' reads over many runs, as the console takes them: the runs table (filters,
keyset pages, counts, filter choices), the safety queue, the agents of a page of runs, and
one run's stored scorecard.

The console reads through the service, never the store (docs/architecture.md). These reads
need no rule beyond their queries, so the service offers the store's functions as they are;
a rule they come to need (a visibility, a cache) is added here, where every page gets it.
"""

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
    "count_runs",
    "distinct_values",
    "flagged_runs",
    "get_scorecard",
    "list_runs",
    "list_runs_by_cost",
]
