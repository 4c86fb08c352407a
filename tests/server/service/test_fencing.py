"""A job whose run was claimed again by another worker (it was taken for dead) stops without
storing anything, and a pass the other worker stored first is not an error (both stores)."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine

from judge.core.domain.judging import JudgePass
from judge.engine.settings import Settings
from judge.server.service.fencing import Fence, ScoringTakenOver
from judge.server.service.scoring import claim, pass_writer
from judge.server.store import passes as pass_repo
from judge.server.store.db import transaction
from tests.conftest import example
from tests.server.service.test_jobs import _store_run


def _pass(index: int) -> JudgePass:
    return JudgePass(
        trait="negotiation",
        index=index,
        score=0.5,
        rationale="r",
        cited_turns=[],
        raw_output="{}",
        model="m",
        latency_ms=1.0,
        attempts=1,
        parse_status="ok",
    )


def test_a_superseded_job_stops_before_storing_and_the_new_one_tolerates_stored_passes(
    engine: Engine, settings: Settings
) -> None:
    _store_run(engine, example("haggle"))
    assert claim(engine, run_id="haggle-0007", settings=settings) is not None
    first = Fence(engine, run_id="haggle-0007")
    first.guard(pass_writer(engine, run_id="haggle-0007", retry_s=settings.store_retry_s))(
        "buyer", _pass(0)
    )

    assert (
        claim(engine, run_id="haggle-0007", settings=settings) is not None
    )  # the stall sweep gave it away
    second = Fence(engine, run_id="haggle-0007")
    with pytest.raises(ScoringTakenOver, match="claimed again"):
        first.guard(pass_writer(engine, run_id="haggle-0007", retry_s=settings.store_retry_s))(
            "buyer", _pass(1)
        )
    with pytest.raises(ScoringTakenOver):
        first.store(lambda: None)

    write = second.guard(pass_writer(engine, run_id="haggle-0007", retry_s=settings.store_retry_s))
    write("buyer", _pass(0))  # already stored by the first job: not an error
    write("buyer", _pass(1))
    with transaction(engine) as session:
        assert sorted(pass_repo.stored_passes(session, run_id="haggle-0007")) == [
            ("buyer", "negotiation", 0),
            ("buyer", "negotiation", 1),
        ]
    second.check()  # the current holder goes on
