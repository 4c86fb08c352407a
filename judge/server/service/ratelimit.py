"""Sliding-window limiters, in this process or shared by every replica in PostgreSQL
(docs/security.md, "Which limits are per replica and which are shared")."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from typing import TypeVar

from cachetools import LRUCache
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from judge.server.store import rate_events
from judge.server.store.db import autocommit, read_again_if_dropped

log = logging.getLogger("judge.ratelimit")
T = TypeVar("T")
U = TypeVar("U")
V = TypeVar("V")


class RateWindow(ABC):
    """The four calls both windows answer; a ``limit`` of 0 turns a window off. ``shared``: the
    window does I/O (the request guard then asks it on a worker thread)."""

    limit: int

    @property
    def enabled(self) -> bool:
        return self.limit > 0

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may act again (0.0: it may act now)."""
        return self._retry_after(key) if self.enabled else 0.0

    def record(self, key: str) -> None:
        """Count one event for ``key`` now."""
        if self.enabled:
            self._record(key)

    def acquire(self, key: str) -> float:
        """Take a slot for ``key`` if one is free (returns 0.0), else the seconds to wait: one
        step, so a burst of concurrent requests cannot all pass before any is counted."""
        return self._acquire(key) if self.enabled else 0.0

    def release(self, key: str) -> None:
        """Give back the latest slot of ``key`` (the request it was taken for was refused)."""
        if self.enabled:
            self._release(key)

    @abstractmethod
    def _retry_after(self, key: str) -> float: ...

    @abstractmethod
    def _record(self, key: str) -> None: ...

    @abstractmethod
    def _acquire(self, key: str) -> float: ...

    @abstractmethod
    def _release(self, key: str) -> None: ...


class SlidingWindow(RateWindow):
    """Counts events per key over the last ``window_s`` seconds, in this process: at most
    ``max_keys`` keys (the least recently used forgotten first), ``limit`` timestamps each."""

    shared = False

    def __init__(
        self,
        *,
        limit: int,
        window_s: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.limit, self.window_s, self.clock, self.max_keys = limit, window_s, clock, max_keys
        self._events: LRUCache[str, deque[float]] = LRUCache(max_keys)
        self._lock = threading.Lock()

    def _retry_after(self, key: str) -> float:
        with self._lock:
            events = self._recent(key)
            if len(events) < self.limit:
                return 0.0
            return max(events[0] + self.window_s - self.clock(), 0.001)

    def _record(self, key: str) -> None:
        with self._lock:
            events = self._recent(key)
            events.append(self.clock())
            while len(events) > self.limit:
                events.popleft()

    def _acquire(self, key: str) -> float:
        with self._lock:
            events = self._recent(key)
            if len(events) >= self.limit:
                return max(events[0] + self.window_s - self.clock(), 0.001)
            events.append(self.clock())
            return 0.0

    def _release(self, key: str) -> None:
        with self._lock:
            events = self._events.get(key)
            if events:
                events.pop()

    def _recent(self, key: str) -> deque[float]:
        events = self._events.get(key)
        if events is None:
            events = self._events[key] = deque()
        horizon = self.clock() - self.window_s
        while events and events[0] <= horizon:
            events.popleft()
        return events


#: Every this many writes, a shared window also deletes the expired events of every key.
SWEEP_EVERY = 200
#: After the store failed to answer, a shared window does not ask it for this long, so an
#: outage does not make every request wait for a connection first; meanwhile each replica
#: holds the limit on its own (bounded, never open).
OUTAGE_PAUSE_S = 5.0


class SharedWindow(RateWindow):
    """:class:`SlidingWindow` kept in PostgreSQL for every replica (``rate_events``); ``engine``
    is asked for on each use (None before start). A database that does not answer is not asked
    again for :data:`OUTAGE_PAUSE_S` (logged), and meanwhile this replica's own window of the
    same limit answers: an outage never lifts the limit, it only stops sharing it."""

    shared = True

    def __init__(
        self,
        *,
        bucket: str,
        limit: int,
        window_s: float,
        engine: Callable[[], Engine | None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.window_s = limit, window_s
        self.window = rate_events.Window(bucket, limit, window_s)
        self._engine = engine
        self._writes = itertools.count(1)
        self.clock = clock
        self._down_until = 0.0
        self._local = SlidingWindow(limit=limit, window_s=window_s, clock=clock)

    def _retry_after(self, key: str) -> float:
        # asked before every request: one statement, in autocommit (no BEGIN and COMMIT)
        read = lambda c: rate_events.wait_s(c, window=self.window, key=key)
        return self._run(read, 0.0, lambda: self._local.retry_after(key), read_only=True)

    def _record(self, key: str) -> None:
        step = lambda c: rate_events.record(c, window=self.window, key=key)
        self._write(step, lambda: self._local.record(key))

    def _acquire(self, key: str) -> float:
        step = lambda c: rate_events.acquire(c, window=self.window, key=key)
        return self._write(step, lambda: self._local.acquire(key)) or 0.0

    def _release(self, key: str) -> None:
        step = lambda c: rate_events.release(c, window=self.window, key=key)
        self._write(step, lambda: self._local.release(key))

    def _write(self, step: Callable[[Connection], T], local: Callable[[], U]) -> T | U | None:
        def with_sweep(connection: Connection) -> T:
            if next(self._writes) % SWEEP_EVERY == 0:
                rate_events.sweep(connection, window_s=self.window_s)
            return step(connection)

        return self._run(with_sweep, None, local)

    def _run(
        self,
        step: Callable[[Connection], T],
        unavailable: U,
        local: Callable[[], V],
        *,
        read_only: bool = False,
    ) -> T | U | V:
        """``step`` on the store; before start ``unavailable``; while the store is out (and
        for :data:`OUTAGE_PAUSE_S` after it failed) ``local``, this replica's own count."""
        engine = self._engine()
        if engine is None:
            return unavailable
        if self.clock() < self._down_until:
            return local()

        def once() -> T:
            with autocommit(engine).connect() if read_only else engine.begin() as connection:
                return step(connection)

        try:
            return read_again_if_dropped(once) if read_only else once()
        except SQLAlchemyError as exc:
            self._down_until = self.clock() + OUTAGE_PAUSE_S
            log.warning(
                "rate limit %s held by this replica alone for %g s, the store did not answer: %s",
                self.window.bucket,
                OUTAGE_PAUSE_S,
                exc,
            )
            return local()
