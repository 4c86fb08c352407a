"""Storing passes off the event loop: a writer thread per job stores each pass, in order, while the
loop goes on judging (docs/deploy.md). A failed write is raised by the next pass handed in or by
:meth:`WriteBehind.drain`; past ``limit`` waiting passes the loop waits too, so an outage holds
the job back instead of piling up passes it could lose."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor

from judge.core.domain.judging import JudgePass
from judge.engine.pipeline import OnSeatPass

#: Passes that may wait for their write before the job waits with them.
PENDING_LIMIT = 32


class WriteBehind:
    """An ``on_pass`` that runs the wrapped one on a writer thread of its own."""

    def __init__(self, on_pass: OnSeatPass, *, limit: int = PENDING_LIMIT) -> None:
        self._on_pass, self._limit = on_pass, limit
        self._pending: deque[Future[None]] = deque()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-passes")

    def __call__(self, seat: str, judge_pass: JudgePass) -> None:
        """Hand a pass to the writer; raises the error of an earlier write, if one failed."""
        self._reap()
        if len(self._pending) >= self._limit:
            self._pending.popleft().result()  # the store is slow: wait here for the oldest
        self._pending.append(self._thread.submit(self._on_pass, seat, judge_pass))

    def _reap(self) -> None:
        while self._pending and self._pending[0].done():
            self._pending.popleft().result()

    async def drain(self) -> None:
        """Wait until every pass handed in is stored; raises the first write error."""
        while self._pending:
            # shielded: a cancelled job must not cancel a paid pass's write
            await asyncio.shield(asyncio.wrap_future(self._pending[0]))
            self._pending.popleft().result()

    async def settle(self) -> None:
        """Wait for every write to end, whatever its outcome (the job's own failure is reported)."""
        while self._pending:
            with contextlib.suppress(Exception):
                await asyncio.shield(asyncio.wrap_future(self._pending.popleft()))

    def close(self) -> None:
        """Let the writer thread end once its writes are done (without waiting here)."""
        self._thread.shutdown(wait=False)
