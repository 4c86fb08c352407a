"""The hand-off of a hot read to a thread and back: ``judge.handoff.Threads`` (what
``judge.deps.in_read`` and the request guard's store calls use) against asyncio's
``run_in_executor`` on a ``ThreadPoolExecutor`` and anyio's ``to_thread.run_sync`` (what
FastAPI uses), in one process, in the same run.

Ten callers in flight on one event loop, as the service's load benchmark keeps ten requests in
flight (``bench/api_load.py``); each hands off a call that does a few microseconds of work (a
read answered from SQLite's cache) or waits 0.3 ms with the GIL released (a PostgreSQL round
trip on loopback). Prints, per way and per call, the wall time and the event loop's own CPU
time (what bounds how many requests one process serves), and both as ratios to asyncio's
executor call. The pools have 16 threads, as ``judge.deps.READ_THREADS``.

    python bench/handoff.py [--calls 20000] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import functools
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import anyio
import anyio.to_thread

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.deps import READ_THREADS
from judge.handoff import Threads

IN_FLIGHT = 10
Hop = Callable[[Callable[[], int]], Awaitable[int]]


def cached_read() -> int:
    total = 0
    for i in range(200):
        total += i
    return total


def round_trip() -> int:
    time.sleep(0.0003)
    return 0


class Measured(NamedTuple):
    wall_us: float
    loop_cpu_us: float


async def measure(hop: Hop, work: Callable[[], int], calls: int) -> Measured:
    async def caller() -> None:
        for _ in range(calls // IN_FLIGHT):
            await hop(work)

    began, cpu = time.perf_counter(), time.thread_time()
    await asyncio.gather(*(caller() for _ in range(IN_FLIGHT)))
    wall, loop_cpu = time.perf_counter() - began, time.thread_time() - cpu
    return Measured(wall / calls * 1e6, loop_cpu / calls * 1e6)


def ways() -> dict[str, Hop]:
    executor = ThreadPoolExecutor(READ_THREADS)
    threads = Threads(READ_THREADS, "bench-handoff")
    anyio.to_thread.current_default_thread_limiter().total_tokens = READ_THREADS

    async def run_in_executor(call: Callable[[], int]) -> int:
        context = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor, functools.partial(context.run, call))

    async def to_thread(call: Callable[[], int]) -> int:
        return await anyio.to_thread.run_sync(call)

    async def handoff(call: Callable[[], int]) -> int:
        return await threads.run(call)

    return {
        "asyncio run_in_executor": run_in_executor,
        "anyio to_thread.run_sync": to_thread,
        "judge.handoff.Threads": handoff,
    }


async def main(calls: int) -> None:
    hops = ways()
    for label, work in (("cached read (~5 us of work)", cached_read), ("0.3 ms wait", round_trip)):
        print(f"-- {label}, {calls} calls, {IN_FLIGHT} in flight, {READ_THREADS} threads")
        base: Measured | None = None
        for name, hop in hops.items():
            await measure(hop, work, calls // 10)  # warm: threads started
            m = await measure(hop, work, calls)
            base = base or m
            print(
                f"{name:26s} wall {m.wall_us:7.1f} us x{m.wall_us / base.wall_us:4.2f}   "
                f"event loop CPU {m.loop_cpu_us:6.1f} us x{m.loop_cpu_us / base.loop_cpu_us:4.2f}",
                flush=True,
            )


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--smoke", action="store_true", help="a few hundred calls: that it runs")
    args = parser.parse_args()
    asyncio.run(main(200 if args.smoke else args.calls))


if __name__ == "__main__":
    cli()
