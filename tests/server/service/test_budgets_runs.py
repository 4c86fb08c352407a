"""Runs hold their estimate, on SQLite and PostgreSQL (docs/service.md, "Budget holds"): the
check of a run's estimate against the limits and the hold of it are one serialised
transaction, so two runs whose estimates each fit a daily limit (the platform's or an agent's)
but together do not are never both admitted, whether both are checked at the same instant or
one is judging while the other is checked; the run's end drops its holds with the passes it
made, when it is scored and when scoring fails; a run still judging keeps its holds alive."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge.core.domain.cost import CostEstimate, Spent
from judge.core.domain.run import Run, parse_run
from judge.core.errors import BudgetExceeded, PermanentJudgeError
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.settings import Settings
from judge.server.service import align, budgets, jobs, platform
from judge.server.service.jobs import JUDGE_REFUSED
from judge.server.store import spend
from judge.server.store.db import transaction
from judge.server.store.tables import BudgetHoldRow, PassRow
from judge.server.web import create_app
from tests.conftest import example, owner_headers, wait_final
from tests.helpers import verdict

OWNER = owner_headers()
BUDGETS = "/api/evals/config/eval_budgets"
#: Every call the scripted judge answers is 100 prompt and 10 completion tokens.
CALL_TOKENS = 110
BARRIER_S = 2.0


def reply(_: JudgeRequest) -> JudgeReply:
    return JudgeReply(text=verdict(0.6), prompt_tokens=100, completion_tokens=10)


def limit(engine: Engine, settings: Settings, value: dict[str, Any]) -> None:
    with transaction(engine) as session:
        platform.update_value(
            session, key=budgets.BUDGETS_KEY, value=value, by="owner:test", settings=settings
        )


def holds(engine: Engine) -> list[BudgetHoldRow]:
    with transaction(engine) as session:
        return list(session.exec(select(BudgetHoldRow).order_by(BudgetHoldRow.id)).all())


def passes_of(engine: Engine, run_id: str) -> int:
    with transaction(engine) as session:
        return len(session.exec(select(PassRow).where(PassRow.run_id == run_id)).all())


def spent_today(engine: Engine) -> Spent:
    with transaction(engine) as session:
        return spend.platform_spent(session, since=budgets.day_start())


def meeting_reads(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Make each read of today's spend (``spend.<name>``) wait, 2 s at most, for a second
    check to have read it too: two checks not serialised both read before either holds; the
    tokens each read saw."""
    both_read = threading.Barrier(2, timeout=BARRIER_S)
    reads: list[int] = []
    read: Callable[..., Any] = getattr(spend, name)

    def read_then_meet(*args: Any, **kwargs: Any) -> Any:
        found = read(*args, **kwargs)
        reads.append(
            sum(s.tokens for s in found.values()) if isinstance(found, dict) else found.tokens
        )
        try:
            both_read.wait()
        except threading.BrokenBarrierError:  # the other could not read: it waits its turn
            pass
        return found

    monkeypatch.setattr(spend, name, read_then_meet)
    return reads


# Checked at the same instant, straight on the guard the worker takes


def stored_run(run_id: str) -> Run:
    return parse_run(example("haggle", run_id=run_id))


def estimate_of(tokens: int) -> CostEstimate:
    """A run's estimate: all of it on the buyer's seat (agent-alpha)."""
    return CostEstimate(
        n_passes=10, prompt_tokens=tokens, completion_tokens=0, per_seat_tokens={"buyer": tokens}
    )


def guards_at_once(engine: Engine, settings: Settings, tokens: int) -> dict[str, Any]:
    """Two runs' guards taken on two threads at once; each guard or BudgetExceeded."""
    out: dict[str, Any] = {}

    def take(run_id: str) -> None:
        try:
            out[run_id] = budgets.run_guard(
                engine, stored_run(run_id), estimate_of(tokens), settings=settings, cancel=None
            )
        except Exception as exc:  # noqa: BLE001  (the outcome goes to the test's thread)
            out[run_id] = exc

    threads = [threading.Thread(target=take, args=(r,)) for r in ("run-a", "run-b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30.0)
    return out


def one_refused(out: dict[str, Any]) -> tuple[str, BudgetExceeded]:
    refused = {r: o for r, o in out.items() if isinstance(o, BudgetExceeded)}
    assert len(refused) == 1, out
    ((run_id, exc),) = refused.items()
    admitted = next(r for r in out if r != run_id)
    assert out[admitted] is not None and not isinstance(out[admitted], Exception)
    return admitted, exc


def test_two_runs_checked_at_once_are_not_both_admitted_past_the_platform_limit(
    engine: Engine, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit(engine, settings, {"platform_day_tokens": 1000})
    reads = meeting_reads(monkeypatch, "platform_spent")

    admitted, refused = one_refused(guards_at_once(engine, settings, tokens=600))

    assert refused.daily and "the platform per day limit of 1000 tokens" in str(refused)
    assert reads == [0, 600]  # the later check read the earlier one's hold
    (held,) = holds(engine)
    assert (held.run_id, held.agent_id, held.tokens) == (admitted, "agent-alpha", 600)
    assert (held.purpose, held.what, held.created_by) == (
        "run",
        f"run {admitted}",
        "system:scoring",
    )


def test_two_runs_of_one_agent_checked_at_once_are_not_both_admitted_past_its_limit(
    engine: Engine, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit(engine, settings, {"agent_day_tokens": 1000})
    reads = meeting_reads(monkeypatch, "agents_spent")

    admitted, refused = one_refused(guards_at_once(engine, settings, tokens=600))

    assert refused.daily and "agent agent-alpha per day limit of 1000 tokens" in str(refused)
    assert reads == [0, 600]
    assert [(h.run_id, h.agent_id, h.tokens) for h in holds(engine)] == [
        (admitted, "agent-alpha", 600)
    ]
    with transaction(engine) as session:  # the agent's hold is the platform's spend too
        agent = spend.agent_spent(session, agent_id="agent-alpha", since=budgets.day_start())
        other = spend.agent_spent(session, agent_id="agent-beta", since=budgets.day_start())
    assert (agent.tokens, other.tokens, spent_today(engine).tokens) == (600, 0, 600)


def test_a_run_limit_alone_holds_nothing_and_no_limit_takes_no_guard(
    engine: Engine, settings: Settings
) -> None:
    assert (
        budgets.run_guard(
            engine, stored_run("run-a"), estimate_of(600), settings=settings, cancel=None
        )
        is None
    )
    limit(engine, settings, {"run_tokens": 1000})
    guard = budgets.run_guard(
        engine, stored_run("run-a"), estimate_of(600), settings=settings, cancel=None
    )
    assert guard is not None and [lim.scope for lim in guard.limits] == ["run"]
    assert holds(engine) == []
    with pytest.raises(BudgetExceeded, match="the run limit of 1000 tokens"):
        budgets.run_guard(
            engine, stored_run("run-b"), estimate_of(1200), settings=settings, cancel=None
        )


def test_a_run_claimed_again_replaces_the_hold_its_dead_process_left(
    engine: Engine, settings: Settings
) -> None:
    limit(engine, settings, {"platform_day_tokens": 1000})
    run = stored_run("run-a")
    budgets.run_guard(engine, run, estimate_of(600), settings=settings, cancel=None)
    # the process died; the run is claimed again: its own old hold does not refuse it
    budgets.run_guard(engine, run, estimate_of(600), settings=settings, cancel=None)
    assert [(h.run_id, h.tokens) for h in holds(engine)] == [("run-a", 600)]
    with pytest.raises(BudgetExceeded):  # another run still sees the live hold
        budgets.run_guard(
            engine, stored_run("run-b"), estimate_of(600), settings=settings, cancel=None
        )


def test_renewing_pushes_a_live_run_hold_on_and_leaves_an_expired_one(
    engine: Engine, settings: Settings
) -> None:
    limit(engine, settings, {"platform_day_tokens": 1000})
    now = datetime.now(UTC)
    bound = timedelta(seconds=settings.budget_hold_s)
    live, dead = now - bound + timedelta(seconds=30), now - bound - timedelta(seconds=30)
    for run_id, taken in (("run-a", live), ("run-b", dead)):
        budgets.hold_for_run(
            engine,
            settings=settings,
            run_id=run_id,
            seats_of_agent={"agent-alpha": ["buyer"]},
            estimate=estimate_of(300),
            now=taken,
        )
    for run_id in ("run-a", "run-b"):
        budgets.Renewal(engine, settings, run_id=run_id, clock=ticks(settings.budget_hold_s))()

    found = {h.run_id: h.expires_at for h in holds(engine)}
    assert found["run-a"] >= now + bound
    assert found["run-b"] == dead + bound  # expired: not brought back
    assert spent_today(engine).tokens == 300  # the renewed hold counts, the expired one not


def ticks(*seconds: float) -> Callable[[], float]:
    """A monotonic clock reading 0, then each of ``seconds`` in turn (the last one after)."""
    readings = [0.0, *seconds]

    def clock() -> float:
        return readings.pop(0) if len(readings) > 1 else readings[0]

    return clock


def test_a_proposals_hold_is_renewed_as_its_calls_are_made(
    engine: Engine, settings: Settings
) -> None:
    limit(engine, settings, {"platform_day_tokens": 1000})
    taken = datetime.now(UTC) - timedelta(seconds=settings.budget_hold_s / 2)
    hold = budgets.hold_for_owners(
        engine,
        settings=settings,
        estimate=estimate_of(600),
        what="judge align for negotiation",
        purpose="align",
        by="owner:ana",
        now=taken,
    )
    quarter = settings.budget_hold_s / 4
    spent = align.Spending(
        budgets.Renewal(engine, settings, hold=hold, clock=ticks(quarter - 1, quarter))
    )
    (first,) = [h.expires_at for h in holds(engine)]

    spent.clarified("run-a", "buyer", settings.model, reply(None))  # type: ignore[arg-type]
    assert [h.expires_at for h in holds(engine)] == [first]  # not a quarter of the bound yet
    spent.clarified("run-a", "buyer", settings.model, reply(None))  # type: ignore[arg-type]
    (renewed,) = [h.expires_at for h in holds(engine)]
    assert renewed >= first + timedelta(seconds=settings.budget_hold_s / 2 - 1)
    assert len(spent.calls) == 2


def test_the_worker_renews_a_runs_holds_as_its_passes_are_stored(
    engine: Engine, settings: Settings
) -> None:
    limit(engine, settings, {"platform_day_tokens": 10_000})
    taken = datetime.now(UTC) - timedelta(seconds=settings.budget_hold_s / 2)
    budgets.hold_for_run(
        engine,
        settings=settings,
        run_id="run-a",
        seats_of_agent={"agent-alpha": ["buyer"]},
        estimate=estimate_of(600),
        now=taken,
    )
    quarter = settings.budget_hold_s / 4
    stored: list[str] = []

    def write(seat: str, judge_pass: Any, claimed: int | None = None) -> bool:
        stored.append(seat)
        return True

    def expiry() -> datetime:
        (held,) = holds(engine)
        return held.expires_at

    first = expiry()
    writer = jobs.renewing(write, engine, "run-a", settings, clock=ticks(quarter - 1, quarter))
    assert writer("buyer", None) is True  # type: ignore[arg-type]
    assert expiry() == first  # not a quarter of the bound yet: no renewal
    assert writer("buyer", None) is True  # type: ignore[arg-type]
    assert expiry() >= first + timedelta(seconds=settings.budget_hold_s / 2 - 1)
    assert stored == ["buyer", "buyer"]


# Through the service: the worker's own path, end to end


class Service:
    """The service with a scripted judge whose first call records the holds of that moment,
    and the estimates the worker held."""

    def __init__(self, client: TestClient, judge: ScriptedBackend, engine: Engine) -> None:
        self.client, self.judge, self.engine = client, judge, engine
        self.seen: list[list[tuple[str | None, str | None, int]]] = []
        self.estimates: list[int] = []

    def budget(self, value: dict[str, Any]) -> None:
        assert self.client.put(BUDGETS, json={"value": value}, headers=OWNER).status_code == 200

    def score(self, *run_ids: str) -> list[dict[str, Any]]:
        for run_id in run_ids:
            posted = self.client.post(
                "/api/evals/runs", json=example("haggle", run_id=run_id), headers=OWNER
            )
            assert posted.status_code == 202
        return [wait_final(self.client, run_id, OWNER) for run_id in run_ids]


def serve(
    settings: Settings, engine: Engine, monkeypatch: pytest.MonkeyPatch, fails_after: int | None
) -> Iterator[Service]:
    box: list[Service] = []
    answered = 0

    def script(request: JudgeRequest) -> JudgeReply:
        nonlocal answered
        if answered == 0:
            box[0].seen.append([(h.run_id, h.agent_id, h.tokens) for h in holds(engine)])
        if fails_after is not None and answered == fails_after:
            raise PermanentJudgeError("the judge's provider refused the key")
        answered += 1
        return reply(request)

    run_guard = jobs.run_guard

    def noting(engine: Engine, run: Run, estimate: CostEstimate, **kwargs: Any) -> Any:
        box[0].estimates.append(estimate.tokens)
        return run_guard(engine, run, estimate, **kwargs)

    monkeypatch.setattr(jobs, "run_guard", noting)  # the worker's guard, the estimate noted
    judge = ScriptedBackend(script, model=settings.model)
    with TestClient(create_app(settings, backends=lambda _: judge)) as client:
        box.append(Service(client, judge, engine))
        yield box[0]


@pytest.fixture
def service(
    settings: Settings, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Service]:
    yield from serve(settings, engine, monkeypatch, fails_after=None)


@pytest.fixture
def failing(
    settings: Settings, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Service]:
    yield from serve(settings, engine, monkeypatch, fails_after=7)


def test_a_scored_run_holds_its_estimate_while_judging_and_drops_it_with_its_card(
    service: Service, engine: Engine
) -> None:
    service.budget({"platform_day_tokens": 10_000_000})

    (final,) = service.score("run-a")

    assert final["status"] == "scored"
    (estimate,) = service.estimates
    assert service.seen == [[("run-a", "agent-alpha", estimate)]]
    assert holds(engine) == []  # dropped with the card: the passes count instead
    made = passes_of(engine, "run-a")
    assert made == len(service.judge.history) > 0
    assert spent_today(engine).tokens == made * CALL_TOKENS < estimate


def test_a_run_whose_scoring_fails_drops_its_hold_and_keeps_the_passes_it_made(
    failing: Service, engine: Engine
) -> None:
    failing.budget({"platform_day_tokens": 10_000_000})

    (final,) = failing.score("run-a")

    assert final["status"] == "not_scored" and final["reason"].startswith(JUDGE_REFUSED)
    (estimate,) = failing.estimates
    assert failing.seen == [[("run-a", "agent-alpha", estimate)]]
    assert holds(engine) == []
    assert passes_of(engine, "run-a") == 7
    assert spent_today(engine).tokens == 7 * CALL_TOKENS


def test_a_run_refused_for_budget_holds_nothing(service: Service, engine: Engine) -> None:
    service.budget({"platform_day_tokens": 100})

    (final,) = service.score("run-a")

    assert final["status"] == "not_scored"
    assert "the platform per day limit of 100 tokens" in final["reason"]
    assert service.judge.history == [] and holds(engine) == []


def test_two_runs_scored_at_once_are_not_both_admitted_past_the_platform_limit(
    service: Service, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.budget({"platform_day_tokens": 10_000_000})
    service.score("probe")
    (estimate,) = service.estimates
    # one more estimate fits; two do not, nor one with the other's real passes (15 * 110)
    service.budget({"platform_day_tokens": spent_today(engine).tokens + estimate + 1000})
    reads = meeting_reads(monkeypatch, "platform_spent")

    finals = service.score("run-a", "run-b")  # two workers take them at once

    statuses = sorted(f["status"] for f in finals)
    assert statuses == ["not_scored", "scored"], finals
    (refused,) = [f for f in finals if f["status"] == "not_scored"]
    assert refused["reason"].startswith("budget: ")
    assert "the platform per day limit of" in refused["reason"]
    assert len(reads) == 2 and reads[1] > reads[0]  # the later check saw a hold or its passes
    assert holds(engine) == []
    assert passes_of(engine, refused["run_id"]) == 0
