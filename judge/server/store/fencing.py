"""What a scoring job's fence reads (``judge.server.service.fencing``)."""

from __future__ import annotations

from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine

_STARTS = sa.text("SELECT scoring_starts, status FROM runs WHERE run_id = :run_id")


class ClaimState(NamedTuple):
    """The run's count of scoring claims (``scoring_starts``) and its status now."""

    starts: int
    status: str


def claim_state(engine: Engine, *, run_id: str) -> ClaimState:
    """The claim count and status of a stored run (on its own connection, committed data)."""
    with engine.connect() as connection:
        row = connection.execute(_STARTS, {"run_id": run_id}).one()
    return ClaimState(int(row[0]), str(row[1]))
