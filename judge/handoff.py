"""Blocking work handed from the event loop to a thread, and its answer handed back.

``await threads.run(call, *args)`` runs ``call(*args)`` on one of the pool's threads, in a
copy of the caller's context (log and trace state go along), and resumes the caller with its
result or its exception. It does what ``loop.run_in_executor`` does with a
``ThreadPoolExecutor`` at about a third of the event loop's time (docs/deploy.md, "Read
performance"): the job is one tuple on a queue and the answer one callback on the loop, where
the executor's path builds and chains a second future, takes its locks and a semaphore on
every call. The threads are started as work arrives, at most ``size``; they live as long as
the process (a forked child starts its own).

A caller that is cancelled stops waiting; the call itself runs to its end, as on an executor.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import queue
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[
    asyncio.AbstractEventLoop,
    "asyncio.Future[Any]",
    contextvars.Context,
    Callable[..., Any],
    tuple[Any, ...],
]


class Threads:
    """A pool of at most ``size`` threads named ``name-N`` for :meth:`run`."""

    def __init__(self, size: int, name: str) -> None:
        if size < 1:
            raise ValueError(f"a thread pool needs at least one thread, not {size}")
        self.size, self.name = size, name
        self._reset()
        _POOLS.add(self)

    def _reset(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._started = 0
        self._idle = 0

    @property
    def started(self) -> int:
        """How many threads the pool has started so far."""
        return self._started

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on a pool thread, in a copy of the caller's context. A thread is
        started when none waits for work (read without the lock: a stale count only starts
        a thread a job later, or one more, never past ``size``)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, contextvars.copy_context(), call, args))
        if self._idle == 0 and self._started < self.size:
            self._start()
        return await future

    def _start(self) -> None:
        with self._lock:
            if self._started >= self.size:
                return
            self._started += 1
            name = f"{self.name}-{self._started}"
        threading.Thread(target=self._work, args=(self._jobs,), name=name, daemon=True).start()

    def _work(self, jobs: queue.SimpleQueue[_Job]) -> None:
        while True:
            with self._lock:  # += from several threads may lose a count without it
                self._idle += 1
            loop, future, context, call, args = jobs.get()
            with self._lock:
                self._idle -= 1
            try:
                result = context.run(call, *args)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, who raises it
                _answer(loop, future, None, exc)
            else:
                _answer(loop, future, result, None)


def _answer(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: object,
    error: BaseException | None,
) -> None:
    try:
        loop.call_soon_threadsafe(_settle, future, result, error)
    except RuntimeError:  # the loop closed while the call ran: no one is waiting
        pass


def _settle(future: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


_POOLS: weakref.WeakSet[Threads] = weakref.WeakSet()


def _forked() -> None:
    """A forked child has none of its parent's threads: each pool starts its own."""
    for pool in list(_POOLS):
        pool._reset()


os.register_at_fork(after_in_child=_forked)
