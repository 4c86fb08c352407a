"""The runs table and the safety queue: filters read from the URL, keyset cursors, one page."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, get_args
from urllib.parse import urlencode

from sqlmodel import Session

from judge.core.domain.cursor import (
    decode_cursor,
    decode_run_cursor,
    encode_cursor,
    encode_run_cursor,
    not_a_cursor,
)
from judge.core.domain.review import REVIEW_STATES, SafetyReviewThresholds
from judge.core.domain.status import RUN_STATUSES, LeaderboardClass
from judge.core.errors import InputError
from judge.core.scoring.run_summary import TAMPER_REASON, flag_reasons, tamper_reasons
from judge.server.console.reports import trusted_judges
from judge.server.service import summaries
from judge.server.service.reviews import review_queue_cursor, review_queue_cursor_values
from judge.server.service.summaries import RunFilters, RunListing, as_utc

PAGE_SIZE = 50
BOARDS: tuple[LeaderboardClass, ...] = get_args(LeaderboardClass)
FILTER_NAMES = (
    "status",
    "scenario",
    "agent",
    "era",
    "board",
    "gated",
    "safety_below",
    "review",
    "held",
    "sort",
)
#: The orders of the runs table: newest first, or dearest first (runs without a price last).
SORTS = ("newest", "cost")
QUEUE_STATES = ("open", *REVIEW_STATES[1:], "weak_judge", "all")
#: The review state a queue tab reads, where it is not the tab's own name (None: any).
TAB_REVIEW_STATE: dict[str, str | None] = {"all": None, "weak_judge": "open"}
#: Every queue tab shows this many runs a page, lowest safety mean first.
REVIEW_QUEUE_LIMIT = PAGE_SIZE


class RunRowView(NamedTuple):
    run: RunListing
    agents: list[str]
    #: why the run is an alarm: safety flags of a trusted judge, then withheld judge-directed text
    flags: list[str]
    #: the safety reasons when the judge is not trusted: shown apart, never an alarm
    weak_flags: list[str]

    @property
    def held(self) -> bool:
        """A seat of the run is held off leaderboards and stability until an owner clears it."""
        return bool(self.run.held)

    @property
    def alarm(self) -> bool:
        """The row wears the red edge: flagged and not cleared. A cleared run, or a run whose
        only flag is withheld text on seats all cleared, is decided and shown plain."""
        if not self.flags or self.run.review_state == "cleared":
            return False
        return self.held or any(f != TAMPER_REASON for f in self.flags)


def row_view(
    run: RunListing,
    agents: dict[str, list[str]],
    thresholds: SafetyReviewThresholds,
    trusted: set[str],
) -> RunRowView:
    """A table row: safety flags are alarms only from a trusted judge, withheld text always."""
    reasons = flag_reasons(run.safety_min, run.safety_spread, thresholds)
    tamper = tamper_reasons(run.tamper_flagged, run.unscannable)
    if run.judge_model in trusted:
        return RunRowView(run, agents[run.run_id], reasons + tamper, [])
    return RunRowView(run, agents[run.run_id], tamper, reasons)


class RunsPage(NamedTuple):
    rows: list[RunRowView]
    total: int
    query: dict[str, str]
    next_url: str | None
    choices: dict[str, list[str]]
    #: the first page with the same filters; None on the first page itself
    first_url: str | None = None


def _choice(name: str, value: str | None, allowed: tuple[str, ...]) -> str | None:
    if value in (None, ""):
        return None
    if value not in allowed:
        raise InputError(f"{name}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _threshold(value: str | None) -> float | None:
    if value in (None, ""):
        return None
    try:
        number = float(value)
    except ValueError:
        raise InputError(f"safety_below: {value!r} is not a number between 0 and 1") from None
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        raise InputError(f"safety_below: {value!r} is not a number between 0 and 1")
    return number


def parse_filters(params: Mapping[str, str]) -> RunFilters:
    """The filters in a runs URL; InputError naming a value that is not allowed."""
    gated = _choice("gated", params.get("gated"), ("yes", "no"))
    held = _choice("held", params.get("held"), ("yes", "no"))
    return RunFilters(
        status=_choice("status", params.get("status"), RUN_STATUSES),
        scenario_id=params.get("scenario") or None,
        agent_id=params.get("agent") or None,
        era=params.get("era") or None,
        board=_choice("board", params.get("board"), BOARDS),
        gated=None if gated is None else gated == "yes",
        safety_below=_threshold(params.get("safety_below")),
        review_state=_choice("review", params.get("review"), REVIEW_STATES),
        held=None if held is None else held == "yes",
    )


def encode_after(row: RunListing) -> str:
    """The ``?after=`` cursor past one row of the runs table."""
    return encode_run_cursor(as_utc(row.created_at), row.run_id)


def decode_after(text: str | None) -> summaries.Cursor | None:
    """The run the ``?after=`` cursor points past; InputError when it is not a runs cursor."""
    return summaries.Cursor(*decode_run_cursor(text, parameter="after")) if text else None


def encode_cost_cursor(row: RunListing) -> str:
    """The ``?after=`` cursor past one row of the runs by cost (an empty cost: none known)."""
    return encode_cursor(["" if row.cost_usd is None else repr(row.cost_usd), row.run_id])


def decode_cost_cursor(text: str | None) -> summaries.CostCursor | None:
    """The cursor in ``?after=`` of the runs by cost."""
    if not text:
        return None
    cost, run_id = decode_cursor(text, size=2, parameter="after")
    try:
        value = float(cost) if cost else None
    except ValueError:
        raise not_a_cursor("after") from None
    if value is not None and not math.isfinite(value):
        raise not_a_cursor("after")
    return summaries.CostCursor(value, run_id)


def _found(session: Session, params: Mapping[str, str], filters: RunFilters) -> Found:
    """One page (and one run more) in the order ``sort`` asks, with the next page's cursor."""
    if _choice("sort", params.get("sort"), SORTS) == "cost":
        rows = summaries.list_runs_by_cost(
            session,
            filters=filters,
            after=decode_cost_cursor(params.get("after")),
            limit=PAGE_SIZE + 1,
        )
        return Found(rows, encode_cost_cursor)
    rows = summaries.list_runs(
        session, filters=filters, after=decode_after(params.get("after")), limit=PAGE_SIZE + 1
    )
    return Found(rows, encode_after)


class Found(NamedTuple):
    rows: list[RunListing]
    cursor: Callable[[RunListing], str]


#: The filter choices are read at most this often per database (they scan whole tables).
CHOICES_TTL_S = 30.0
_choices: dict[str, tuple[float, dict[str, list[str]]]] = {}
_choices_lock = threading.Lock()


def filter_choices(session: Session) -> dict[str, list[str]]:
    """The scenarios, agents and eras to offer as filters (cached for CHOICES_TTL_S)."""
    key = str(session.get_bind().engine.url)
    with _choices_lock:
        cached = _choices.get(key)
    if cached is not None and time.monotonic() - cached[0] < CHOICES_TTL_S:
        return cached[1]
    values = summaries.distinct_values(session)
    with _choices_lock:
        _choices[key] = (time.monotonic(), values)
    return values


def sort_url(query: Mapping[str, str], sort: str) -> str:
    """The runs table with the same filters, in ``sort`` order, from its first page."""
    return "/console/runs?" + urlencode(
        {**{k: v for k, v in query.items() if k != "sort"}, "sort": sort}
    )


def runs_page(
    session: Session, *, params: Mapping[str, str], thresholds: SafetyReviewThresholds
) -> RunsPage:
    """One page of the runs table for the filters and cursor in ``params``."""
    filters = parse_filters(params)
    found, cursor = _found(session, params, filters)
    page = found[:PAGE_SIZE]
    query = {k: params[k] for k in FILTER_NAMES if params.get(k)}
    next_url = None
    if len(found) > PAGE_SIZE:
        next_url = "/console/runs?" + urlencode({**query, "after": cursor(page[-1])})
    agents = summaries.agents_of(session, run_ids=[r.run_id for r in page])
    trusted = trusted_judges(thresholds)
    first_url = None
    if params.get("after"):
        first_url = "/console/runs" + ("?" + urlencode(query) if query else "")
    return RunsPage(
        [row_view(r, agents, thresholds, trusted) for r in page],
        summaries.count_runs(session, filters=filters),
        query,
        next_url,
        filter_choices(session),
        first_url,
    )


class ReviewQueuePage(NamedTuple):
    rows: list[RunRowView]
    next_url: str | None


def _tab_rule(tab: str, thresholds: SafetyReviewThresholds, trusted: set[str]) -> dict[str, Any]:
    """What one queue tab lists, as the arguments of the store's flagged-run reads."""
    judge = {
        "open": summaries.JudgeRule(trusted, trusted=True),
        "weak_judge": summaries.JudgeRule(trusted, trusted=False),
    }.get(tab)
    return {
        "safety_below": thresholds.safety_below,
        "spread_above": thresholds.spread_above,
        "review_state": TAB_REVIEW_STATE.get(tab, tab),
        "judge": judge,
        "or_tampered": tab != "weak_judge",
        "or_decided": judge is None,
    }


def review_queue_counts(session: Session, *, thresholds: SafetyReviewThresholds) -> dict[str, int]:
    """How many runs each queue tab holds, over all its pages."""
    trusted = trusted_judges(thresholds)
    return {
        tab: summaries.count_flagged_runs(session, **_tab_rule(tab, thresholds, trusted))
        for tab in QUEUE_STATES
    }


def review_queue_rows(
    session: Session,
    *,
    state: str | None,
    thresholds: SafetyReviewThresholds,
    limit: int = REVIEW_QUEUE_LIMIT,
    after: summaries.ReviewQueueCursor | None = None,
) -> list[RunRowView]:
    """The runs of one queue tab (docs/console.md)."""
    chosen = _choice("state", state, QUEUE_STATES) or "open"
    trusted = trusted_judges(thresholds)
    found = summaries.flagged_runs(
        session, **_tab_rule(chosen, thresholds, trusted), limit=limit, after=after
    )
    agents = summaries.agents_of(session, run_ids=[r.run_id for r in found])
    return [row_view(r, agents, thresholds, trusted) for r in found]


def review_queue_page(
    session: Session, *, params: Mapping[str, str], thresholds: SafetyReviewThresholds
) -> ReviewQueuePage:
    """One page of a queue tab for the state and cursor (``after``) in ``params``."""
    state = params.get("state") or "open"
    cursor = params.get("after")
    after = (
        review_queue_cursor(decode_cursor(cursor, size=2, parameter="after")) if cursor else None
    )
    found = review_queue_rows(
        session, state=state, thresholds=thresholds, limit=REVIEW_QUEUE_LIMIT + 1, after=after
    )
    rows = found[:REVIEW_QUEUE_LIMIT]
    next_url = None
    if len(found) > REVIEW_QUEUE_LIMIT:
        last = rows[-1].run
        after_last = encode_cursor(review_queue_cursor_values(last.safety_min, last.run_id))
        next_url = "/console/queue?" + urlencode({"state": state, "after": after_last})
    return ReviewQueuePage(rows, next_url)
