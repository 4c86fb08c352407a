"""Fencing a scoring job: a worker taken for dead that was only slow (starved of CPU, cut off)
stops once another took its run over. Each claim counts a start on the run (``scoring_starts``);
before storing anything a job checks that no later claim happened. A pass the other worker
stored first is not an error; a scorecard stored first means the run is done."""

from __future__ import annotations

import logging
from collections.abc import Callable
from threading import Event
from typing import Protocol

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from judge.core.domain.judging import JudgePass
from judge.core.errors import JudgeError
from judge.engine.pipeline import OnSeatPass
from judge.server.store.db import retry_transient
from judge.server.store.fencing import ClaimState, claim_state

log = logging.getLogger("judge.jobs")


class ClaimedWrite(Protocol):
    """Stores a pass while the claim ``claimed`` still stands; False when it does not."""

    def __call__(self, seat: str, judge_pass: JudgePass, claimed: int | None = None) -> bool: ...


class ScoringTakenOver(JudgeError):
    """Another worker claimed this run after this job did; this job stops without storing."""


class Fence:
    """The claim a job holds on a run; its reads wait out a failing store for ``retry_s``."""

    def __init__(
        self, engine: Engine, *, run_id: str, retry_s: float = 0.0, cancel: Event | None = None
    ) -> None:
        self.engine, self.run_id, self.retry_s, self.cancel = engine, run_id, retry_s, cancel
        self.starts = self._read().starts

    def _read(self) -> ClaimState:
        return retry_transient(
            lambda: claim_state(self.engine, run_id=self.run_id),
            budget_s=self.retry_s,
            cancel=self.cancel,
        )

    def check(self) -> None:
        """Raise ScoringTakenOver when a later claim, or a stored scorecard, superseded ours."""
        starts, status = self._read()
        if starts != self.starts or status != "scoring":
            raise ScoringTakenOver(
                f"run {self.run_id} was claimed again (start {starts}, ours {self.starts})"
            )

    def guard(self, write: ClaimedWrite) -> OnSeatPass:
        """A pass writer under this claim: it stops a superseded job (nothing stored) and
        tolerates a pass already stored."""

        def on_pass(seat: str, judge_pass: JudgePass) -> None:
            try:
                stored = write(seat, judge_pass, self.starts)
            except IntegrityError as exc:
                if "uq_pass" not in str(exc.orig) and "UNIQUE" not in str(exc.orig):
                    raise
                log.info(
                    "pass %s/%s/%d of run %s was already stored",
                    seat,
                    judge_pass.trait,
                    judge_pass.index,
                    self.run_id,
                )
                return
            if not stored:
                self.check()
                raise ScoringTakenOver(f"run {self.run_id} is no longer being scored")

        return on_pass

    def store(self, store_scorecard: Callable[[], None]) -> None:
        """Store the scorecard unless superseded; a scorecard stored first by the other worker wins."""
        self.check()
        try:
            store_scorecard()
        except IntegrityError:
            if self._read().status != "scored":
                raise
            raise ScoringTakenOver(f"run {self.run_id} was scored by another worker") from None
