"""Real OpenAI-compatible llama.cpp servers on loopback, for tests and benchmarks.

:func:`llama_server` starts llama-cpp-python's server: the same SmolLM2 GGUF as the embedded
judge, with one slot (one cached prompt), verbose so that every completion prints llama.cpp's
own timing line; :func:`evaluated_prompt_tokens` reads the prompt tokens the server really
evaluated from those lines. :func:`llama_cpp_server` starts llama.cpp's own ``llama-server``
(several slots, OpenAI's ``n``), where one is installed (:func:`llama_cpp_server_binary`); its
slots print the same timing lines.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx

from judge.engine.judging.providers.embedded import gguf_path
from judge.engine.settings import judging_environment

REPO = Path(__file__).resolve().parents[3]

_PROMPT_EVAL = re.compile(r"prompt eval time\s*=\s*[\d.]+ ms /\s*(\d+) tokens")
#: llama.cpp's count of decoded tokens ("eval time = ... ms / N runs", not the prompt's line;
#: ``llama-server`` says "tokens").
_DECODE_EVAL = re.compile(r"(?<!prompt )eval time\s*=\s*[\d.]+ ms /\s*(\d+) (?:runs|tokens)")


class LlamaServer(NamedTuple):
    base_url: str
    log: Path
    #: ``llama-server``'s Prometheus counters (:func:`server_counters`); None for
    #: llama-cpp-python's server, which has none
    metrics_url: str | None = None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def llama_server(
    log: Path,
    *,
    n_ctx: int = 8192,
    threads: int = 1,
    ready_s: float = 120.0,
    extra: tuple[str, ...] = (),
) -> Iterator[LlamaServer]:
    """Start llama-cpp-python's server (see :mod:`tests.engine.judging.serve_llama`) on a free loopback
    port, from the repository root; stop it on exit. ``extra``: more server arguments."""
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "tests.engine.judging.serve_llama",
        "--model",
        str(gguf_path(judging_environment())),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
        "--model_alias",
        "smollm2",
        *extra,
    ]
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path}
    with _running(cmd, log, port, ready_s, env=env) as server:
        yield server


def llama_cpp_server_binary() -> Path | None:
    """llama.cpp's own ``llama-server``: ``JUDGE_LLAMA_SERVER`` where set, else the one on
    PATH; None where there is none (``.ci/run`` builds one from llama-cpp-python's source)."""
    named = os.environ.get("JUDGE_LLAMA_SERVER")
    found = Path(named) if named else (Path(p) if (p := shutil.which("llama-server")) else None)
    return found if found is not None and found.is_file() else None


@contextmanager
def llama_cpp_server(
    binary: Path,
    log: Path,
    *,
    slots: int = 4,
    n_ctx: int = 16384,
    threads: int = 1,
    ready_s: float = 120.0,
) -> Iterator[LlamaServer]:
    """Start llama.cpp's ``llama-server`` with ``slots`` slots sharing one KV cache of
    ``n_ctx`` cells (its default with automatic slots is 4, unified), the SmolLM2 GGUF as
    ``smollm2``, on a free loopback port; stop it on exit."""
    port = free_port()
    cmd = [
        str(binary),
        "--model",
        str(gguf_path(judging_environment())),
        "--alias",
        "smollm2",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--ctx-size",
        str(n_ctx),
        "--parallel",
        str(slots),
        "--kv-unified",
        "--threads",
        str(threads),
        "--threads-batch",
        str(threads),
        "--no-webui",
        "--metrics",
    ]
    with _running(cmd, log, port, ready_s, metrics=True) as server:
        yield server


@contextmanager
def _running(
    cmd: list[str],
    log: Path,
    port: int,
    ready_s: float,
    *,
    env: dict[str, str] | None = None,
    metrics: bool = False,
) -> Iterator[LlamaServer]:
    """Run ``cmd`` (a server on ``port``) with its output in ``log`` until it answers; stop
    it on exit."""
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=REPO)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_ready(f"{base}/v1", proc, ready_s)
        yield LlamaServer(f"{base}/v1", log, f"{base}/metrics" if metrics else None)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


_COUNTER = re.compile(
    r"^llamacpp:(prompt_tokens_total|tokens_predicted_total) (\S+)$", re.MULTILINE
)


def server_counters(server: LlamaServer) -> tuple[int, int]:
    """``llama-server``'s own totals so far: prompt tokens it evaluated (the tokens that went
    into its decode batches: a prompt its ``n`` choices share counts once, where each slot's
    timing line repeats it) and tokens it decoded, every choice's."""
    assert server.metrics_url is not None, "llama-cpp-python's server keeps no counters"
    found = dict(_COUNTER.findall(httpx.get(server.metrics_url, timeout=10).text))
    return int(float(found["prompt_tokens_total"])), int(float(found["tokens_predicted_total"]))


def _wait_ready(base: str, proc: subprocess.Popen[bytes], ready_s: float) -> None:
    deadline = time.monotonic() + ready_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the llama.cpp server exited with {proc.returncode}")
        try:
            if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError("the llama.cpp server did not answer in time")


def evaluated_prompt_tokens(log: Path, *, since: int = 0) -> list[int]:
    """Prompt tokens the server evaluated per completion, from its log (from byte ``since``)."""
    text = log.read_bytes()[since:].decode(errors="replace")
    return [int(n) for n in _PROMPT_EVAL.findall(text)]


def decoded_tokens(log: Path, *, since: int = 0) -> list[int]:
    """Tokens the server decoded per completion, from its log (from byte ``since``)."""
    text = log.read_bytes()[since:].decode(errors="replace")
    return [int(n) for n in _DECODE_EVAL.findall(text)]
