"""Passes stored off the event loop: in order, on another thread, every one before drain()
returns, and a failed write stops the job at the next pass (or at drain)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from judge.core.domain.judging import JudgePass
from judge.server.service.write_behind import WriteBehind


def _pass(index: int) -> JudgePass:
    return JudgePass(trait="negotiation", index=index, score=0.5, model="m", parse_status="ok")


class SlowStore:
    def __init__(self, delay: float = 0.02, fail_at: int | None = None) -> None:
        self.delay, self.fail_at = delay, fail_at
        self.stored: list[int] = []
        self.threads: set[int] = set()

    def __call__(self, seat: str, judge_pass: JudgePass) -> None:
        time.sleep(self.delay)
        self.threads.add(threading.get_ident())
        if judge_pass.index == self.fail_at:
            raise RuntimeError("disk on fire")
        self.stored.append(judge_pass.index)


def test_passes_are_stored_in_order_on_another_thread_and_drain_waits_for_all() -> None:
    store = SlowStore()

    async def job() -> float:
        passes = WriteBehind(store)
        started = time.monotonic()
        for n in range(10):
            passes("buyer", _pass(n))
        handed_in = time.monotonic() - started
        assert store.stored != list(range(10))  # not stored yet: the loop did not wait
        await passes.drain()
        passes.close()
        return handed_in

    handed_in = asyncio.run(job())
    assert handed_in < 0.1  # ten writes of 20 ms each did not hold the loop
    assert store.stored == list(range(10))
    assert threading.get_ident() not in store.threads and len(store.threads) == 1


def test_a_failed_write_is_raised_by_the_next_pass_or_by_drain() -> None:
    async def next_pass() -> None:
        passes = WriteBehind(SlowStore(delay=0.0, fail_at=0))
        passes("buyer", _pass(0))
        await asyncio.sleep(0.1)
        with pytest.raises(RuntimeError, match="disk on fire"):
            passes("buyer", _pass(1))
        passes.close()

    async def drain() -> None:
        store = SlowStore(fail_at=2)
        passes = WriteBehind(store)
        for n in range(4):
            passes("buyer", _pass(n))
        with pytest.raises(RuntimeError, match="disk on fire"):
            await passes.drain()
        await passes.settle()  # the writes after the failed one still end
        assert store.stored == [0, 1, 3]
        passes.close()

    asyncio.run(next_pass())
    asyncio.run(drain())


def test_beyond_the_limit_the_loop_waits_for_the_store() -> None:
    store = SlowStore(delay=0.05)

    async def job() -> float:
        passes = WriteBehind(store, limit=2)
        started = time.monotonic()
        for n in range(6):
            passes("buyer", _pass(n))
        waited = time.monotonic() - started
        await passes.drain()
        passes.close()
        return waited

    waited = asyncio.run(job())
    assert waited >= 0.15  # four passes had to wait for an earlier write to finish
    assert store.stored == list(range(6))
