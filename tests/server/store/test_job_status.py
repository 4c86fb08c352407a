"""What the job queue's status reads from the store: runs by status and the oldest queued
run's wait (both stores)."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from judge.server.store.job_status import run_counts
from tests.conftest import example
from tests.server.service.test_jobs import _store_run


def test_an_empty_store_counts_zero_in_every_status(engine: Engine) -> None:
    counts = run_counts(engine)

    assert counts.by_status == {"queued": 0, "scoring": 0, "scored": 0, "not_scored": 0}
    assert counts.oldest_queued_s is None


def test_a_stored_run_is_queued_and_its_wait_is_counted(engine: Engine) -> None:
    _store_run(engine, example("haggle"))

    counts = run_counts(engine)

    assert counts.by_status["queued"] == 1
    assert counts.oldest_queued_s is not None and 0.0 <= counts.oldest_queued_s < 60
