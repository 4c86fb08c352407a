"""Budgets on judging: limits per run and per UTC day (docs/service.md, "Budgets")."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import partial
from threading import Event
from typing import NamedTuple

from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.cost import Budget, CostEstimate, Limit
from judge.core.domain.run import Run
from judge.core.errors import BudgetExceeded, ConflictError, NotFoundError
from judge.core.scoring.cost import BudgetGuard, estimate_crossing, limits_for
from judge.engine.settings import Settings
from judge.server.service import platform
from judge.server.store import runs as run_repo
from judge.server.store import spend
from judge.server.store.db import is_transient, lock_for_write, retry_transient, transaction
from judge.server.store.tables import RunRow

log = logging.getLogger("judge.budgets")

#: The platform_config key of the limits.
BUDGETS_KEY = "eval_budgets"
#: Serialises the check of an owner's request against the daily limits with its hold.
BUDGET_LOCK = "judge:budgets"
#: The not-scored reason of a run a budget refused or stopped; the limit is in the owner's detail.
BUDGET_REASON = "budget"
#: The one "seat" a pairwise request's passes are counted under: both its agents pay for it.
PAIR_SEAT = "pair"
#: The purpose a run's budget holds are kept under (``judge budget holds``).
RUN_PURPOSE = "run"
#: Who a run's holds name: the scoring service.
RUN_HOLDER = "system:scoring"


def day_start(now: datetime | None = None) -> datetime:
    """Midnight UTC of ``now``'s day (default: today): the daily limits count from here."""
    return (
        (now or datetime.now(UTC))
        .astimezone(UTC)
        .replace(hour=0, minute=0, second=0, microsecond=0)
    )


def seats_by_agent(run: Run) -> dict[str, list[str]]:
    """The run's scored seats, by the agent that sits in them."""
    out: dict[str, list[str]] = {}
    for seat in run.scored_seats:
        out.setdefault(run.agent_of(seat), []).append(seat)
    return out


def guard(
    engine: Engine,
    *,
    settings: Settings,
    seats_of_agent: Mapping[str, Sequence[str]],
    estimate: CostEstimate,
    except_run: str | None = None,
) -> BudgetGuard | None:
    """The guard for judging ``estimate``'s calls; None when the platform sets no limit, and
    BudgetExceeded (nothing judged) when the estimate would take a limit past its bound."""
    with transaction(engine) as session:
        budget = _budget(session, settings)
        if budget.unlimited:
            return None
        limits = _checked(session, budget, seats_of_agent, estimate, except_run=except_run)
    return BudgetGuard(limits)


def _budget(session: Session, settings: Settings) -> Budget:
    """The platform's limits as they stand in the store."""
    value = platform.read_value(session, key=BUDGETS_KEY, settings=settings).value
    return Budget.model_validate(value.model_dump())


def _checked(
    session: Session,
    budget: Budget,
    seats_of_agent: Mapping[str, Sequence[str]],
    estimate: CostEstimate,
    *,
    except_run: str | None,
    now: datetime | None = None,
) -> list[Limit]:
    """The budget's limits with today's spend at ``now`` (default: the clock); BudgetExceeded
    naming the one the estimate would take past its bound."""
    at = now or datetime.now(UTC)
    limits = _limits(
        session, budget, seats_of_agent, since=day_start(at), except_run=except_run, now=at
    )
    if (refused := estimate_crossing(limits, estimate)) is not None:
        raise BudgetExceeded(refused.text, daily=refused.daily)
    return limits


def _expiry(settings: Settings, at: datetime) -> datetime:
    """When a hold taken or renewed at ``at`` stops counting (JUDGE_BUDGET_HOLD_S later)."""
    return at + timedelta(seconds=settings.budget_hold_s)


class Hold(NamedTuple):
    """An owner's request's estimate held in the platform's spend (:func:`hold_for_owners`);
    ``hold_id`` None: no hold was needed (the platform sets no daily limit)."""

    hold_id: int | None


def hold_for_owners(
    engine: Engine,
    *,
    settings: Settings,
    estimate: CostEstimate,
    what: str,
    purpose: str,
    by: str,
    now: datetime | None = None,
) -> Hold:
    """Hold judge calls an owner (``by``) asks for beside the runs (``what``: an alignment
    proposal) to the platform's daily limits only: no run or agent pays for them. Check and
    hold are one transaction serialised by :data:`BUDGET_LOCK`, so concurrent requests see
    each other's holds. BudgetExceeded (daily, nothing held) naming the limit passed. End the
    hold with :func:`settle`, also on failure; one never settled counts until
    ``settings.budget_hold_s`` after ``now`` (default: the clock)."""

    def once() -> Hold:
        at = now or datetime.now(UTC)
        with transaction(engine) as session:
            lock_for_write(session, name=BUDGET_LOCK)
            budget = _budget(session, settings)
            if budget.platform_day_usd is None and budget.platform_day_tokens is None:
                return Hold(None)
            limits = _limits(session, budget, {}, since=day_start(at), except_run=None, now=at)
            daily = [limit for limit in limits if limit.scope == "platform per day"]
            if (refused := estimate_crossing(daily, estimate)) is not None:
                text = f"{what} refused before any judge call: {refused.text}"
                raise BudgetExceeded(text, daily=True)
            tokens, usd = sum(estimate.per_seat_tokens.values()), estimate.per_seat_usd
            held = spend.add_hold(
                session,
                purpose=purpose,
                what=what,
                by=by,
                tokens=tokens,
                cost_usd=sum(usd.values()) if usd else None,
                now=at,
                expires_at=_expiry(settings, at),
            )
            return Hold(held)

    return retry_transient(once, budget_s=settings.store_retry_s)


def settle(session: Session, hold: Hold) -> None:
    """End ``hold`` in the transaction that keeps the calls its request made (if any), so
    today's spend goes from the estimate to the real count at once."""
    if hold.hold_id is not None:
        spend.drop_hold(session, hold_id=hold.hold_id)


def _limits(
    session: Session,
    budget: Budget,
    seats_of_agent: Mapping[str, Sequence[str]],
    *,
    since: datetime,
    except_run: str | None,
    now: datetime | None = None,
) -> list[Limit]:
    """The budget's limits with what was spent since ``since`` (the agents' only when it caps
    them), the budget holds live at ``now`` (default: the clock) with it."""
    agents = sorted(seats_of_agent) if budget.agent_day_usd or budget.agent_day_tokens else []
    return limits_for(
        budget,
        seats_of_agent=seats_of_agent,
        agent_spent=spend.agents_spent(
            session, agent_ids=agents, since=since, except_run=except_run, now=now
        ),
        platform_spent=spend.platform_spent(session, since=since, except_run=except_run, now=now),
    )


def hold_for_run(
    engine: Engine,
    *,
    settings: Settings,
    run_id: str,
    seats_of_agent: Mapping[str, Sequence[str]],
    estimate: CostEstimate,
    now: datetime | None = None,
) -> BudgetGuard | None:
    """The guard of a run about to be judged, its estimate held in today's spend: checked
    against every limit (as :func:`guard`) and held in one transaction serialised by
    :data:`BUDGET_LOCK`, so concurrent runs see each other's holds. One hold per agent of the
    run, replacing an earlier claim's (its process died). None when the platform sets no
    limit; no hold without a daily limit; BudgetExceeded naming the limit passed. Dropped in
    the transaction that ends the run's scoring (its passes count instead); until then it
    counts for ``settings.budget_hold_s`` after ``now`` (default: the clock), renewed while
    the run stores passes (:class:`Renewal`)."""
    at = now or datetime.now(UTC)
    with transaction(engine) as session:
        lock_for_write(session, name=BUDGET_LOCK)
        spend.drop_run_holds(session, run_id=run_id)
        budget = _budget(session, settings)
        if budget.unlimited:
            return None
        limits = _checked(session, budget, seats_of_agent, estimate, except_run=run_id, now=at)
        if any(limit.scope != "run" for limit in limits):
            _hold_seats(session, run_id, seats_of_agent, estimate, at=at, settings=settings)
        return BudgetGuard(limits)


def _hold_seats(
    session: Session,
    run_id: str,
    seats_of_agent: Mapping[str, Sequence[str]],
    estimate: CostEstimate,
    *,
    at: datetime,
    settings: Settings,
) -> None:
    """One hold per agent, of its seats' estimate; seats no agent sits in under no agent."""
    owned = {seat: agent for agent, seats in seats_of_agent.items() for seat in seats}
    by_agent: dict[str | None, list[str]] = {}
    for seat in sorted(set(estimate.per_seat_tokens) | set(estimate.per_seat_usd)):
        by_agent.setdefault(owned.get(seat), []).append(seat)
    expires_at = _expiry(settings, at)
    for agent, seats in by_agent.items():
        usd = [estimate.per_seat_usd[s] for s in seats if s in estimate.per_seat_usd]
        spend.add_hold(
            session,
            purpose=RUN_PURPOSE,
            what=f"run {run_id}",
            by=RUN_HOLDER,
            tokens=sum(estimate.per_seat_tokens.get(s, 0) for s in seats),
            cost_usd=sum(usd) if usd else None,
            now=at,
            expires_at=expires_at,
            run_id=run_id,
            agent_id=agent,
        )


class Renewal:
    """Keeps the live holds of a working request (a run's, by ``run_id``, or an owner's
    ``hold``) from expiring: called on progress, it pushes their expiry to
    ``settings.budget_hold_s`` from then, at most once a quarter of that bound. An expired
    hold stays expired; a store too busy to renew is logged, and the next call tries again."""

    def __init__(
        self,
        engine: Engine,
        settings: Settings,
        *,
        run_id: str | None = None,
        hold: Hold | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine, self.settings, self.clock = engine, settings, clock
        self.run_id = run_id
        self.hold_ids = [hold.hold_id] if hold is not None and hold.hold_id is not None else []
        self.every_s, self.last = settings.budget_hold_s / 4, clock()

    def __call__(self) -> None:
        if self.clock() - self.last < self.every_s or (self.run_id is None and not self.hold_ids):
            return
        expires_at = _expiry(self.settings, datetime.now(UTC))
        try:
            with transaction(self.engine) as session:
                spend.renew_holds(
                    session, expires_at=expires_at, hold_ids=self.hold_ids, run_id=self.run_id
                )
        except Exception as exc:
            if not is_transient(exc):
                raise
            log.warning("could not renew budget holds (%s): %s", self.run_id or self.hold_ids, exc)
            return
        self.last = self.clock()


def run_guard(
    engine: Engine, run: Run, estimate: CostEstimate, *, settings: Settings, cancel: Event | None
) -> BudgetGuard | None:
    """The guard of one stored run, its estimate held (:func:`hold_for_run`; its own stored
    passes are counted by the guard, not as today's spend), waiting out a transiently failing
    store for ``store_retry_s``."""
    seats, retry_s = seats_by_agent(run), settings.store_retry_s
    held = partial(hold_for_run, engine, settings=settings, run_id=run.run_id, seats_of_agent=seats)
    return retry_transient(lambda: held(estimate=estimate), budget_s=retry_s, cancel=cancel)


def refused_for_budget(row: RunRow) -> bool:
    """Whether a budget refused the run before it started or stopped it part way."""
    return row.status == "not_scored" and row.reason == BUDGET_REASON


def score_again(session: Session, *, run_id: str) -> RunRow:
    """Queue a run a budget refused to be scored again, once the owner raised the limit or a
    new day began (docs/service.md, "Budgets"): passes already stored are kept and not judged
    again. ConflictError for a run not refused for budget; NotFoundError for a missing one."""
    row = run_repo.get_run(session, run_id=run_id)
    if row is None:
        raise NotFoundError(f"run {run_id!r} not found")
    if not refused_for_budget(row):
        raise ConflictError(
            f"run {run_id!r} is {row.status}{f' ({row.reason})' if row.reason else ''}: only a "
            "run not scored for budget can be scored again this way"
        )
    run_repo.requeue_after_refusal(session, row=row)
    session.flush()
    return row


def requeue_if_unjudged(session: Session, *, row: RunRow) -> bool:
    """Queue a budget-refused run again when nothing of it was judged (an agent sending the
    same body once limits allow); False, and nothing changed, otherwise."""
    if not refused_for_budget(row) or run_repo.count_passes(session, run_id=row.run_id) > 0:
        return False
    run_repo.requeue_after_refusal(session, row=row)
    return True


class HoldView(NamedTuple):
    """One budget hold as owners see it (``judge budget holds``)."""

    hold_id: int
    purpose: str
    what: str
    by: str | None
    tokens: int
    cost_usd: float | None
    created_at: datetime
    expires_at: datetime
    expired: bool


def holds(session: Session, *, now: datetime | None = None) -> list[HoldView]:
    """Every budget hold not settled or cleared, oldest first, each saying whether it has
    expired at ``now`` (default: the clock): an expired hold counts in no spend any more."""
    at = now or datetime.now(UTC)
    return [
        HoldView(
            hold_id=row.id or 0,
            purpose=row.purpose,
            what=row.what,
            by=row.created_by,
            tokens=row.tokens,
            cost_usd=row.cost_usd,
            created_at=row.created_at,
            expires_at=row.expires_at,
            expired=row.expires_at <= at,
        )
        for row in spend.list_holds(session)
    ]


def clear_expired(session: Session, *, now: datetime | None = None) -> list[int]:
    """Remove the holds expired at ``now`` (default: the clock), serialised with the checks
    that read them; their ids. A live hold stays: its request may still be judging."""
    lock_for_write(session, name=BUDGET_LOCK)
    return spend.clear_expired_holds(session, now=now or datetime.now(UTC))
