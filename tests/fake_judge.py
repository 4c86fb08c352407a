"""A fake OpenAI-compatible judge server on loopback, for tests and benchmarks.

It answers ``POST /v1/chat/completions`` (and ``/chat/completions``) with a verdict the
product parses, after a fixed latency, with at most ``max_concurrent`` calls being answered
at once (the rest wait, like a saturated model server). It counts every call it answers,
and per wall-clock second, so a test can assert exact totals and rate limits.

Controls for tests: :meth:`FakeJudge.pause` holds new calls unanswered until
:meth:`FakeJudge.resume`; a held call whose client went away meanwhile (a killed worker) is
dropped, not answered and not counted. ``rate_limited=True`` answers 429 with Retry-After;
``refuse_with=401`` (or any status) answers every call with that error, counted as rejected.

Run in a background thread with its own event loop (``with FakeJudge() as judge: ...``), or
as a process: ``python -m tests.fake_judge --port 9000 --latency 0.5 --max-concurrent 32``
(``GET /_stats`` answers the counters as JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Self

VERDICT = json.dumps({"score": 0.7, "turns": [], "rationale": "steady"})


@dataclass
class Stats:
    answered: int = 0
    rejected: int = 0
    dropped: int = 0
    in_flight: int = 0
    held: int = 0
    max_in_flight: int = 0
    per_second: Counter[int] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {
            "answered": self.answered,
            "rejected": self.rejected,
            "dropped": self.dropped,
            "in_flight": self.in_flight,
            "held": self.held,
            "max_in_flight": self.max_in_flight,
            "max_per_second": max(self.per_second.values(), default=0),
        }


def completion(model: str, content: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 120, "completion_tokens": 20, "total_tokens": 140},
        }
    ).encode()


def http_response(status: int, body: bytes, extra: dict[str, str] | None = None) -> bytes:
    reason = {200: "OK", 404: "Not Found", 429: "Too Many Requests"}.get(status, "Error")
    headers = {
        "Content-Type": "application/json",
        "Content-Length": str(len(body)),
        **(extra or {}),
    }
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return head.encode() + b"\r\n" + body


class FakeJudge:
    """The server; start with :meth:`start` (thread) or ``async with`` inside a loop."""

    def __init__(
        self,
        *,
        latency: float = 0.0,
        max_concurrent: int = 64,
        rate_limited: bool = False,
        retry_after: float = 1.0,
        port: int = 0,
        refuse_with: int | None = None,
    ) -> None:
        self.refuse_with = refuse_with
        self.latency = latency
        self.max_concurrent = max_concurrent
        self.rate_limited = rate_limited
        self.retry_after = retry_after
        self.port = port
        self.stats = Stats()
        self._open = threading.Event()
        self._open.set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._slots: asyncio.Semaphore | None = None
        self._started = threading.Event()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- control (thread-safe) ------------------------------------------------------------
    def pause(self) -> None:
        self._open.clear()

    def resume(self) -> None:
        self._open.set()

    def snapshot(self) -> dict[str, Any]:
        return self.stats.as_dict()

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> FakeJudge:
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._serve_forever()), daemon=True
        )
        self._thread.start()
        if not self._started.wait(10):
            raise RuntimeError("fake judge did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._server is not None:
            self._loop.call_soon_threadsafe(self._server.close)
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _serve_forever(self) -> None:
        await self.listen()
        assert self._server is not None
        try:
            await self._server.serve_forever()
        except asyncio.CancelledError:
            pass

    async def listen(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._slots = asyncio.Semaphore(self.max_concurrent)
        self._server = await asyncio.start_server(
            self._connection, "127.0.0.1", self.port, backlog=1024
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._started.set()

    # -- HTTP -------------------------------------------------------------------------------
    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while (request := await _read_request(reader)) is not None:
                writer.write(await self._answer(*request, reader))
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def _answer(self, path: str, body: bytes, reader: asyncio.StreamReader) -> bytes:
        if path.startswith("/_stats"):
            return http_response(200, json.dumps(self.snapshot()).encode())
        if not path.rstrip("/").endswith("/chat/completions"):
            return http_response(404, b'{"error": {"message": "not found"}}')
        if self.refuse_with is not None:
            self.stats.rejected += 1
            error = b'{"error": {"message": "refused by the fake judge", "type": "invalid_request_error"}}'
            return http_response(self.refuse_with, error)
        if self.rate_limited:
            self.stats.rejected += 1
            self.stats.per_second[int(time.time())] += 1
            error = b'{"error": {"message": "rate limited", "type": "rate_limit_error"}}'
            return http_response(429, error, {"Retry-After": f"{self.retry_after:g}"})
        if not self._open.is_set():
            self.stats.held += 1
            while not self._open.is_set():
                await asyncio.sleep(0.01)
            self.stats.held -= 1
        return await self._judged(body, reader)

    async def _judged(self, body: bytes, reader: asyncio.StreamReader) -> bytes:
        assert self._slots is not None
        async with self._slots:
            self.stats.in_flight += 1
            self.stats.max_in_flight = max(self.stats.max_in_flight, self.stats.in_flight)
            self.stats.per_second[int(time.time())] += 1
            try:
                await asyncio.sleep(self.latency)
            finally:
                self.stats.in_flight -= 1
            if reader.at_eof():  # the caller is gone: nothing is answered, nothing paid
                self.stats.dropped += 1
                raise ConnectionError("client went away")
            self.stats.answered += 1
        model = json.loads(body or b"{}").get("model", "fake")
        return http_response(200, completion(model, VERDICT))


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, bytes] | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    path = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    return path, await reader.readexactly(length) if length else b""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--max-concurrent", type=int, default=64)
    args = parser.parse_args()
    judge = FakeJudge(latency=args.latency, max_concurrent=args.max_concurrent, port=args.port)

    async def serve() -> None:
        await judge.listen()
        print(judge.port, flush=True)
        assert judge._server is not None
        await judge._server.serve_forever()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
