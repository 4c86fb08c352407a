"""Single flight: one holder at a time of a named piece of work, in this process (an asyncio
lock) and, on PostgreSQL, across processes (a session advisory lock, polled, held on one
connection per process and name for the duration of the work)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from sqlalchemy.engine import Connection, Engine

from judge.server.store.advisory_locks import try_lock, unlock

#: How often a process waiting for another process's flight asks again.
POLL_S = 0.05

_locks: dict[tuple[int, str], tuple[asyncio.Lock, int]] = {}


@asynccontextmanager
async def _local(name: str) -> AsyncIterator[None]:
    """An asyncio lock per name and event loop, forgotten once nobody holds or waits for it."""
    key = (id(asyncio.get_running_loop()), name)
    lock, users = _locks.get(key, (asyncio.Lock(), 0))
    _locks[key] = (lock, users + 1)
    try:
        async with lock:
            yield
    finally:
        lock, users = _locks[key]
        if users == 1:
            del _locks[key]
        else:
            _locks[key] = (lock, users - 1)


@asynccontextmanager
async def _shared(engine: Engine, name: str) -> AsyncIterator[None]:
    held: Connection | None = None
    while held is None:
        held = await anyio.to_thread.run_sync(try_lock, engine, name)
        if held is None:
            await asyncio.sleep(POLL_S)
    try:
        yield
    finally:
        await anyio.to_thread.run_sync(unlock, held, name)


@asynccontextmanager
async def single_flight(engine: Engine, name: str) -> AsyncIterator[None]:
    """Hold ``name`` alone: in this process, and across processes on PostgreSQL."""
    async with _local(name):
        if engine.dialect.name == "postgresql":
            async with _shared(engine, name):
                yield
        else:
            yield
