"""An in-process sliding-window limiter: at most ``limit`` events per key in any ``window_s``.

Limits hold per process: two service processes behind one address each count on their
own (``docs/security.md``). Memory stays bounded: at most ``max_keys`` keys are tracked, the
least recently used forgotten first, and each key keeps at most ``limit`` timestamps.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable


class SlidingWindow:
    """Counts events per key over the last ``window_s`` seconds."""

    def __init__(
        self,
        *,
        limit: int,
        window_s: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.limit, self.window_s, self.clock, self.max_keys = limit, window_s, clock, max_keys
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.limit > 0

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may act again (0.0: it may act now)."""
        if not self.enabled:
            return 0.0
        with self._lock:
            events = self._recent(key)
            if len(events) < self.limit:
                return 0.0
            return max(events[0] + self.window_s - self.clock(), 0.001)

    def record(self, key: str) -> None:
        """Count one event for ``key`` now."""
        if not self.enabled:
            return
        with self._lock:
            events = self._recent(key)
            events.append(self.clock())
            while len(events) > self.limit:
                events.popleft()

    def acquire(self, key: str) -> float:
        """Take a slot for ``key`` if one is free (returns 0.0), else the seconds to wait.

        Checking and counting in one step keeps a burst of concurrent requests from all
        passing the check before any of them is counted.
        """
        if not self.enabled:
            return 0.0
        with self._lock:
            events = self._recent(key)
            if len(events) >= self.limit:
                return max(events[0] + self.window_s - self.clock(), 0.001)
            events.append(self.clock())
            return 0.0

    def release(self, key: str) -> None:
        """Give back the latest slot of ``key`` (the request it was taken for was refused)."""
        with self._lock:
            events = self._events.get(key)
            if events:
                events.pop()

    def _recent(self, key: str) -> deque[float]:
        events = self._events.get(key)
        if events is None:
            events = self._events[key] = deque()
            if len(self._events) > self.max_keys:
                self._events.popitem(last=False)
        else:
            self._events.move_to_end(key)
        horizon = self.clock() - self.window_s
        while events and events[0] <= horizon:
            events.popleft()
        return events
