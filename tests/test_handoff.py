"""The hand-off to a thread (judge/handoff.py): answers, errors, context, cancellation, the
bound on threads, and a forked child."""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
import time

import pytest

from judge.handoff import Threads

marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="unset")


def test_the_call_runs_on_a_pool_thread_with_the_caller_s_context() -> None:
    pool = Threads(2, "t-answer")

    def where(x: int) -> tuple[int, str, str]:
        return x * 2, threading.current_thread().name, marker.get()

    async def main() -> tuple[int, str, str]:
        marker.set("the caller's")
        return await pool.run(where, 21)

    doubled, thread, seen = asyncio.run(main())
    assert (doubled, seen) == (42, "the caller's")
    assert thread == "t-answer-1"
    assert threading.current_thread().name != thread


def test_an_error_reaches_the_caller_and_the_pool_goes_on() -> None:
    pool = Threads(1, "t-error")

    def fail() -> None:
        raise KeyError("missing")

    async def main() -> str:
        with pytest.raises(KeyError, match="missing"):
            await pool.run(fail)
        return await pool.run(str.upper, "still here")

    assert asyncio.run(main()) == "STILL HERE"
    assert pool.started == 1


def test_no_more_threads_than_its_size_and_every_call_answered() -> None:
    pool = Threads(3, "t-bound")
    names: set[str] = set()
    busy, most = [0], [0]
    lock = threading.Lock()

    def slow(i: int) -> int:
        with lock:
            busy[0] += 1
            most[0] = max(most[0], busy[0])
            names.add(threading.current_thread().name)
        time.sleep(0.01)
        with lock:
            busy[0] -= 1
        return i

    async def main() -> list[int]:
        return await asyncio.gather(*(pool.run(slow, i) for i in range(40)))

    assert asyncio.run(main()) == list(range(40))
    assert pool.started == 3 and most[0] == 3
    assert names == {"t-bound-1", "t-bound-2", "t-bound-3"}


def test_a_cancelled_caller_stops_waiting_and_the_call_still_ends() -> None:
    pool = Threads(1, "t-cancel")
    ended = threading.Event()

    def slow() -> str:
        time.sleep(0.2)
        ended.set()
        return "done"

    async def main() -> str:
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(pool.run(slow), timeout=0.05)
        assert not ended.is_set()
        return await pool.run(str, "next")  # queued behind the cancelled call

    assert asyncio.run(main()) == "next"
    assert ended.is_set()


def test_a_size_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one thread, not 0"):
        Threads(0, "t-none")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_starts_threads_of_its_own() -> None:
    pool = Threads(1, "t-fork")
    assert asyncio.run(pool.run(str, "parent")) == "parent"  # the parent's thread is started
    child = os.fork()
    if child == 0:  # the child has no thread of its parent's: without its own, run never ends
        code = 2  # what the child reports when anything raises: it must never return into pytest
        try:
            answer = asyncio.run(asyncio.wait_for(pool.run(str, "child"), timeout=5))
            code = 0 if answer == "child" and pool.started == 1 else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
