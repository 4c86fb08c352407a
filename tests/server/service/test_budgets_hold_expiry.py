"""Budget holds expire, on SQLite and PostgreSQL (docs/service.md, "Budgets"): an owner's
request's hold counts in today's spend only until ``JUDGE_BUDGET_HOLD_S`` after it was taken,
so the hold of a process that died mid-request stops blocking the platform's daily limit; a
live hold still blocks; settling drops an expired hold as cleanly as a live one; clearing
removes only expired holds. Every check is made at an explicit moment, no clock is waited on."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge.core.domain.cost import CostEstimate
from judge.core.errors import BudgetExceeded
from judge.engine.settings import Settings
from judge.server.service import budgets, platform
from judge.server.store import spend
from judge.server.store.db import transaction
from judge.server.store.tables import BudgetHoldRow

LIMIT = 1000
#: One request's estimate: one fits the limit, two do not.
ESTIMATE = CostEstimate(
    n_passes=6, prompt_tokens=540, completion_tokens=60, per_seat_tokens={"owners": 600}
)


def moment(minutes: float) -> datetime:
    """``minutes`` past 01:00 UTC today: every moment of a test falls in one UTC day."""
    return budgets.day_start() + timedelta(hours=1, minutes=minutes)


@pytest.fixture
def limited(engine: Engine, settings: Settings) -> Engine:
    """The platform's daily tokens limited to :data:`LIMIT`, nothing spent yet."""
    with transaction(engine) as session:
        platform.update_value(
            session,
            key=budgets.BUDGETS_KEY,
            value={"platform_day_tokens": LIMIT},
            by="owner:test",
            settings=settings,
        )
    return engine


def hold(engine: Engine, settings: Settings, at: datetime, by: str = "owner:ana") -> int:
    taken = budgets.hold_for_owners(
        engine,
        settings=settings,
        estimate=ESTIMATE,
        what="judge align for negotiation",
        purpose="align",
        by=by,
        now=at,
    )
    assert taken.hold_id is not None
    return taken.hold_id


def stored_ids(engine: Engine) -> list[int | None]:
    with transaction(engine) as session:
        return [row.id for row in session.exec(select(BudgetHoldRow)).all()]


def test_a_live_hold_blocks_a_second_request_and_an_expired_one_no_longer_does(
    limited: Engine, settings: Settings
) -> None:
    first = hold(limited, settings, moment(0))
    bound = timedelta(seconds=settings.budget_hold_s)
    assert bound == timedelta(hours=1)  # the default bound

    for still_live in (moment(30), moment(0) + bound - timedelta(seconds=1)):
        with pytest.raises(BudgetExceeded, match="platform per day limit of 1000 tokens"):
            hold(limited, settings, still_live, by="owner:bo")
    assert stored_ids(limited) == [first]
    with transaction(limited) as session:
        held = spend.platform_spent(session, since=moment(-60), now=moment(30))
        gone = spend.platform_spent(session, since=moment(-60), now=moment(0) + bound)
    assert (held.tokens, gone.tokens) == (600, 0)

    # the first request's process died: its hold expires at the bound and stops counting
    second = hold(limited, settings, moment(0) + bound, by="owner:bo")
    assert stored_ids(limited) == [first, second]
    # the second's hold is live and blocks the next request, as the first's did
    with pytest.raises(BudgetExceeded):
        hold(limited, settings, moment(61), by="owner:cy")


def test_a_shorter_bound_expires_a_hold_sooner(limited: Engine, settings: Settings) -> None:
    short = settings.model_copy(update={"budget_hold_s": 600.0})
    hold(limited, short, moment(0))
    with pytest.raises(BudgetExceeded):
        hold(limited, short, moment(9))
    hold(limited, short, moment(10))


def test_a_run_guard_counts_a_live_hold_and_not_an_expired_one(
    limited: Engine, settings: Settings
) -> None:
    """Runs check the same daily limit on the clock: a hold that expired the moment it was
    taken counts nothing; one live for another hour counts its estimate."""
    midnight = budgets.day_start()
    with transaction(limited) as session:
        spend.add_hold(
            session,
            purpose="align",
            what="a dead request",
            by="owner:ana",
            tokens=600,
            cost_usd=None,
            now=midnight,
            expires_at=midnight,
        )
    run = CostEstimate(
        n_passes=1, prompt_tokens=500, completion_tokens=0, per_seat_tokens={"buyer": 500}
    )
    guarded = budgets.guard(limited, settings=settings, seats_of_agent={}, estimate=run)
    assert guarded is not None
    with transaction(limited) as session:
        spend.add_hold(
            session,
            purpose="align",
            what="a live request",
            by="owner:ana",
            tokens=600,
            cost_usd=None,
            now=midnight,
            expires_at=datetime.now(midnight.tzinfo) + timedelta(hours=1),
        )
    with pytest.raises(BudgetExceeded, match="platform per day limit of 1000 tokens"):
        budgets.guard(limited, settings=settings, seats_of_agent={}, estimate=run)


def test_settle_drops_an_expired_hold_as_cleanly_as_a_live_one(
    limited: Engine, settings: Settings
) -> None:
    dead = hold(limited, settings, moment(0))
    live = hold(limited, settings, moment(90), by="owner:bo")
    with transaction(limited) as session:
        budgets.settle(session, budgets.Hold(dead))
    assert stored_ids(limited) == [live]
    with transaction(limited) as session:  # cleared before its request ended: settle is a no-op
        assert budgets.clear_expired(session, now=moment(90) + timedelta(hours=2)) == [live]
        budgets.settle(session, budgets.Hold(live))
    assert stored_ids(limited) == []


def test_clearing_removes_only_the_expired_holds_and_listing_shows_each(
    limited: Engine, settings: Settings
) -> None:
    old = hold(limited, settings, moment(0), by="owner:ana")
    new = hold(limited, settings, moment(61), by="owner:bo")
    at = moment(75)

    with transaction(limited) as session:
        listed = budgets.holds(session, now=at)
    assert [(h.hold_id, h.by, h.tokens, h.expired) for h in listed] == [
        (old, "owner:ana", 600, True),
        (new, "owner:bo", 600, False),
    ]
    assert (listed[0].created_at, listed[0].expires_at) == (moment(0), moment(60))
    assert (listed[1].what, listed[1].purpose) == ("judge align for negotiation", "align")

    with transaction(limited) as session:
        assert budgets.clear_expired(session, now=at) == [old]
    with transaction(limited) as session:
        assert [(h.hold_id, h.expired) for h in budgets.holds(session, now=at)] == [(new, False)]
        assert budgets.clear_expired(session, now=at) == []
        assert spend.platform_spent(session, since=moment(-60), now=at).tokens == 600
    # the live hold still blocks what it blocked before the clearing
    with pytest.raises(BudgetExceeded):
        hold(limited, settings, at, by="owner:cy")
