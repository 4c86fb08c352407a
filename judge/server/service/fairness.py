"""Fair scheduling: the queue priority of a waiting run (docs/service.md, "Fair scheduling")."""

from __future__ import annotations

import heapq
import itertools
import threading

from sqlalchemy.engine import Engine

from judge.server.store import runs as run_repo
from judge.server.store.db import transaction

PLATFORM_PRIORITY = 1
AGENT_PREFIX = "agent:"


def priority_for(submitted_by: str, earlier: int) -> int:
    """A platform run's priority is PLATFORM_PRIORITY; an agent's, minus its ``earlier``
    unfinished runs stored before this one (by agent id)."""
    return -earlier if submitted_by.startswith(AGENT_PREFIX) else PLATFORM_PRIORITY


def run_priority(engine: Engine, run_id: str) -> int:
    """The priority of a stored run now (platform priority for an unknown run)."""
    with transaction(engine) as session:
        waiting = run_repo.waiting_before(session, run_id=run_id)
    return PLATFORM_PRIORITY if waiting is None else priority_for(*waiting)


class FairQueue:
    """A blocking queue of run ids, highest priority first, then first in (thread-safe);
    ``close()`` wakes every waiting ``get()`` with None, the workers' signal to stop."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, str]] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._closed = False

    def put(self, run_id: str, priority: int) -> None:
        with self._ready:
            heapq.heappush(self._heap, (-priority, next(self._order), run_id))
            self._ready.notify()

    def get(self) -> str | None:
        """The next run id, waiting for one; None once the queue is closed."""
        with self._ready:
            while not self._heap and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            return heapq.heappop(self._heap)[2]

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify_all()

    def reopen(self) -> None:
        with self._ready:
            self._closed = False
