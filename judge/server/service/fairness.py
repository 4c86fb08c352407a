"""Fair scheduling: which waiting run a free scoring worker takes next (``docs/service.md``).

One rule for both executors, given as a priority when a run is queued (higher first, then
the order of queueing):

- a run the platform submitted (``owner:...``, or the service itself) has
  :data:`PLATFORM_PRIORITY`: it is taken before any agent's run;
- an agent's run has priority ``-k``, where ``k`` counts that agent's unfinished runs stored
  before it (by ``agent_id``, whichever of its keys submitted them). An agent's first waiting
  run ranks with every other agent's first, its second behind all of those, and so on: a
  flood from one agent waits behind everyone else's next run, and never starves them.

Procrastinate reads the number as the job's ``priority``; the in-process threads read it
from their own heap (:class:`FairQueue`).
"""

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
    """The queue priority of a run (see the module docstring)."""
    return -earlier if submitted_by.startswith(AGENT_PREFIX) else PLATFORM_PRIORITY


def run_priority(engine: Engine, run_id: str) -> int:
    """The priority of a stored run now (platform priority for an unknown run)."""
    with transaction(engine) as session:
        waiting = run_repo.waiting_before(session, run_id=run_id)
    return PLATFORM_PRIORITY if waiting is None else priority_for(*waiting)


class FairQueue:
    """A blocking queue of run ids, highest priority first, then first in (thread-safe).

    ``close()`` wakes every waiting ``get()`` with None, the workers' signal to stop.
    """

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
