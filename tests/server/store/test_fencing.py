"""What a scoring job's fence reads: the run's claim count and status (both stores)."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from judge.engine.settings import Settings
from judge.server.service.scoring import claim
from judge.server.store.fencing import ClaimState, claim_state
from tests.conftest import example
from tests.server.service.test_jobs import _store_run


def test_each_claim_counts_one_start_and_the_run_is_scoring(
    engine: Engine, settings: Settings
) -> None:
    _store_run(engine, example("haggle"))
    assert claim_state(engine, run_id="haggle-0007") == ClaimState(0, "queued")

    claim(engine, run_id="haggle-0007", settings=settings)
    claim(engine, run_id="haggle-0007", settings=settings)

    assert claim_state(engine, run_id="haggle-0007") == ClaimState(2, "scoring")
