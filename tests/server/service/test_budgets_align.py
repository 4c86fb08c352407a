"""Two `judge align` proposals against one platform daily limit, on SQLite and PostgreSQL
(docs/alignment.md, "What a proposal costs"): each proposal's estimate is checked and held in
today's spend in one serialised transaction, so two proposals whose estimates each fit but
together do not are never both accepted, whether one is judging while the other is checked or
both are checked at the same instant; the hold becomes the calls made when a proposal ends,
also when it fails part way."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge.core.domain.cost import Spent
from judge.core.errors import BudgetExceeded, PermanentJudgeError
from judge.engine.calibration.align_run import estimate_proposal
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.settings import Settings
from judge.server.service import align as service
from judge.server.service.budgets import day_start
from judge.server.store import spend
from judge.server.store.db import transaction
from judge.server.store.tables import BudgetHoldRow, JudgeCallRow
from judge.server.web import create_app
from tests.align_judges import TRAIT, exemplar_learner, label_runs
from tests.conftest import owner_headers

OWNER = owner_headers("aligner")
BUDGETS = "/api/evals/config/eval_budgets"
BODY = service.AlignmentCreate(trait=TRAIT)
#: Each proposal of twelve labelled runs makes 12 * 5 + 6 * 5 + 1 + 6 * 5 judge calls.
CALLS = 121
WAIT_S = 30.0


def replies(request: JudgeRequest) -> JudgeReply:
    """The exemplar learner, with the tokens a remote judge reports (100 in, 10 out)."""
    return JudgeReply(text=exemplar_learner(request), prompt_tokens=100, completion_tokens=10)


@pytest.fixture
def labelled(settings: Settings) -> Iterator[TestClient]:
    """Twelve scored runs, one trait judged, each labelled by an owner."""
    judge = backend(settings, replies)
    with TestClient(create_app(settings, backends=lambda _: judge)) as client:
        label_runs(client, OWNER, 12)
        yield client


def backend(settings: Settings, script: Callable[[JudgeRequest], JudgeReply]) -> ScriptedBackend:
    return ScriptedBackend(script, model=settings.model)


def spent_today(engine: Engine) -> Spent:
    with transaction(engine) as session:
        return spend.platform_spent(session, since=day_start())


def estimated(engine: Engine, settings: Settings) -> int:
    """The tokens one proposal's estimate holds (what the service checks)."""
    judge = backend(settings, replies)
    with transaction(engine) as session:
        source = service.align_input(session, trait=TRAIT)
        aligner = service.align_judge(session, settings=settings, backend=judge)
    found = estimate_proposal(source, aligner, seed=BODY.seed, held_out_share=BODY.held_out_share)
    return found.tokens


def limit_for_one(client: TestClient, engine: Engine, settings: Settings) -> int:
    """Set the platform's daily tokens so one proposal's estimate fits and two do not; the
    estimate."""
    tokens = estimated(engine, settings)
    limit = spent_today(engine).tokens + tokens + tokens // 2
    put = client.put(BUDGETS, json={"value": {"platform_day_tokens": limit}}, headers=OWNER)
    assert put.status_code == 200, put.text
    return tokens


def propose_in_thread(
    engine: Engine, settings: Settings, judge: ScriptedBackend, out: dict[str, Any], name: str
) -> threading.Thread:
    """Make a proposal on its own thread and event loop; its alignment or error in ``out``."""

    def work() -> None:
        try:
            made = service.make_proposal(
                engine, body=BODY, settings=settings, backend=judge, by=name
            )
            out[name] = asyncio.run(made)
        except Exception as exc:  # noqa: BLE001  (any outcome goes to the test's thread to assert on)
            out[name] = exc

    thread = threading.Thread(target=work, name=f"align-{name}")
    thread.start()
    return thread


def holds(engine: Engine) -> list[BudgetHoldRow]:
    with transaction(engine) as session:
        return list(session.exec(select(BudgetHoldRow)).all())


def align_calls(engine: Engine) -> int:
    with transaction(engine) as session:
        return len(session.exec(select(JudgeCallRow).where(JudgeCallRow.purpose == "align")).all())


def refused_one(out: dict[str, Any]) -> tuple[service.Alignment, BudgetExceeded]:
    """The accepted proposal and the refusal, asserting exactly one of each."""
    made = [v for v in out.values() if isinstance(v, service.Alignment)]
    refused = [v for v in out.values() if isinstance(v, BudgetExceeded)]
    assert (len(made), len(refused)) == (1, 1), out
    return made[0], refused[0]


def assert_names_the_limit(refused: BudgetExceeded) -> None:
    assert refused.daily
    assert str(refused).startswith(
        f"judge align for {TRAIT} refused before any judge call: the estimate would exceed "
        "the platform per day limit of "
    )


def test_a_proposal_checked_while_another_is_judging_sees_its_hold_and_is_refused(
    labelled: TestClient, engine: Engine, settings: Settings
) -> None:
    tokens = limit_for_one(labelled, engine, settings)
    before = spent_today(engine)
    first_judging, second_done = threading.Event(), threading.Event()
    seen_while_judging: list[Spent] = []

    def held_back(request: JudgeRequest) -> JudgeReply:
        """The first proposal's judge: at its first call, wait until the second has ended."""
        if not first_judging.is_set():
            seen_while_judging.append(spent_today(engine))
            first_judging.set()
            assert second_done.wait(WAIT_S)
        return replies(request)

    first, second = backend(settings, held_back), backend(settings, replies)
    out: dict[str, Any] = {}
    a = propose_in_thread(engine, settings, first, out, "first")
    assert first_judging.wait(WAIT_S)
    b = propose_in_thread(engine, settings, second, out, "second")
    b.join(WAIT_S)
    second_done.set()
    a.join(WAIT_S)

    made, refused = refused_one(out)
    assert made.created_by == "first" and out["second"] is refused
    assert_names_the_limit(refused)
    assert second.history == [] and len(first.history) == CALLS
    # while judging, the first proposal's estimate was held in today's spend
    assert seen_while_judging == [Spent(usd=before.usd, tokens=before.tokens + tokens)]
    # settled to the real count: the hold is gone, the calls made are kept
    assert holds(engine) == [] and align_calls(engine) == CALLS
    assert spent_today(engine).tokens == before.tokens + 110 * CALLS


def test_two_proposals_checked_at_the_same_instant_are_not_both_accepted(
    labelled: TestClient, engine: Engine, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit_for_one(labelled, engine, settings)
    both_read = threading.Barrier(2, timeout=2.0)
    reads: list[int] = []
    platform_spent: Callable[..., Spent] = spend.platform_spent

    def read_then_meet(*args: Any, **kwargs: Any) -> Spent:
        """Today's spend, then wait (2 s at most) for the other proposal to have read it too."""
        found = platform_spent(*args, **kwargs)
        reads.append(found.tokens)
        try:
            both_read.wait()
        except threading.BrokenBarrierError:  # the other could not read: it waits its turn
            pass
        return found

    monkeypatch.setattr(spend, "platform_spent", read_then_meet)
    judges = {name: backend(settings, replies) for name in ("one", "two")}
    out: dict[str, Any] = {}
    threads = [propose_in_thread(engine, settings, j, out, n) for n, j in judges.items()]
    for thread in threads:
        thread.join(WAIT_S)

    made, refused = refused_one(out)
    assert_names_the_limit(refused)
    # the later check read the earlier one's hold: two reads, the second larger
    assert len(reads) == 2 and reads[1] > reads[0]
    assert sorted(len(j.history) for j in judges.values()) == [0, CALLS]
    assert holds(engine) == [] and made.proposal.trait == TRAIT


def test_a_failed_proposal_releases_its_hold_and_keeps_the_calls_it_made(
    labelled: TestClient, engine: Engine, settings: Settings
) -> None:
    tokens = limit_for_one(labelled, engine, settings)
    before = spent_today(engine)
    answered = 0

    def fails_part_way(request: JudgeRequest) -> JudgeReply:
        nonlocal answered
        if answered == 7:
            raise PermanentJudgeError("the judge's provider refused the key")
        answered += 1
        return replies(request)

    broken = backend(settings, fails_part_way)
    out: dict[str, Any] = {}
    propose_in_thread(engine, settings, broken, out, "broken").join(WAIT_S)

    assert isinstance(out["broken"], PermanentJudgeError)
    assert str(out["broken"]) == "the judge's provider refused the key"
    assert holds(engine) == []
    made_calls = align_calls(engine)
    assert made_calls == 7
    assert spent_today(engine).tokens == before.tokens + 110 * made_calls
    assert made_calls * 110 < tokens  # the failed one's spend leaves room for another
    # with its hold released, the next proposal fits under the limit again
    again: dict[str, Any] = {}
    propose_in_thread(engine, settings, backend(settings, replies), again, "again").join(WAIT_S)
    assert isinstance(again["again"], service.Alignment), again
    assert holds(engine) == [] and align_calls(engine) == made_calls + CALLS
