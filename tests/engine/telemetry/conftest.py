"""A real Arize Phoenix on loopback, started once for the telemetry tests that send to it."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest

from judge.core.domain.scorecard import Scorecard
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.pipeline import score_run
from tests.helpers import example as example_run
from tests.helpers import verdict

#: Phoenix as the test extra installs it, or from a `pip install --target` folder.
PHOENIX_PATH = os.environ.get("JUDGE_TEST_PHOENIX_PATH", "")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def phoenix_available() -> bool:
    if PHOENIX_PATH:
        return (Path(PHOENIX_PATH) / "phoenix" / "server").is_dir()
    try:
        return importlib.util.find_spec("phoenix.server") is not None
    except ModuleNotFoundError:  # no phoenix package at all
        return False


@pytest.fixture(scope="session")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Phoenix server on loopback: its base URL (OTLP/HTTP at /v1/traces)."""
    if not phoenix_available():
        pytest.skip("Arize Phoenix is not installed (the test extra installs it)")
    port, home = free_port(), tmp_path_factory.mktemp("phoenix")
    env = {
        **os.environ,
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_WORKING_DIR": str(home),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    if PHOENIX_PATH:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [PHOENIX_PATH, env.get("PYTHONPATH")]))
    log = (home / "phoenix.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "phoenix.server.main", "serve"], env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(url, server, home / "phoenix.log")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def wait_up(url: str, server: subprocess.Popen[bytes], log: Path, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"Phoenix exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(1)
    raise AssertionError(f"Phoenix not up after {timeout}s: {log.read_text()[-2000:]}")


def received(url: str, trace_id: str, timeout: float = 60) -> dict[str, Any]:
    """The span Phoenix stored in ``trace_id``, once it has arrived."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        spans = httpx.get(f"{url}/v1/projects/default/spans", params={"limit": 1000}).json()
        for span in spans.get("data", []):
            if span["context"]["trace_id"] == trace_id:
                return dict(span)
        time.sleep(0.5)
    raise AssertionError(f"no span of trace {trace_id} at the collector after {timeout}s")


def varied_judge() -> ScriptedBackend:
    """Scores that differ by trait and by pass, so every attribute has something to say."""
    calls: dict[str, int] = {}

    def answer(request: JudgeRequest) -> str:
        n = calls[request.label] = calls.get(request.label, 0) + 1
        base = 0.1 * (len(request.label) % 8)
        return verdict(round(base + 0.1 * (n % 2), 1), rationale=f"{request.label} pass {n}")

    return ScriptedBackend(answer, model="scripted-test-judge")


TRACE_ID = "5b8efff798038103d269b633813fc60c"
SPAN_ID = "eee19b7ec3c1b174"
PHOENIX_KEY = "phx-key-Qm9wLTkyNzM1LWRvLW5vdC1sb2c"
LANGFUSE_SECRET = "sk-lf-3f1c9e0a-7b4d-4e55-9a1e-do-not-log"


class Captured(NamedTuple):
    path: str
    headers: dict[str, str]
    body: Any


class LoopbackReceiver:
    """An HTTP server on loopback that records every POST and answers with ``statuses`` in
    turn (the last one from then on)."""

    def __init__(self, *statuses: int) -> None:
        self.requests: list[Captured] = []
        answers = list(statuses or (202,))
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"null")
                owner.requests.append(Captured(self.path, dict(self.headers.items()), body))
                status = answers.pop(0) if len(answers) > 1 else answers[0]
                reply = json.dumps({"message": "Accepted"} if status < 300 else {}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[LoopbackReceiver]:
    server = LoopbackReceiver(202)
    yield server
    server.close()


@pytest.fixture(scope="module")
def card() -> Scorecard:
    return score_run(example_run("haggle.json"), backend=varied_judge())


def all_traits(card: Scorecard) -> dict[str, Any]:
    seat = card.seats["buyer"]
    return {**seat.traits, **(seat.safety_block or {})}
