"""No network at start-up: `judge worker`, `judge serve`, `judge score` and the library read
litellm's bundled price map, never its remote one (docs/deploy.md, "No network at start-up").

Each command runs as a real process with a ``sitecustomize`` that blocks and records every name
lookup or connection to a host other than loopback, and records whether
``LITELLM_LOCAL_MODEL_COST_MAP`` was set at the moment litellm was first imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from judge.engine.judging.providers.litellm_loader import (
    LOCAL_PRICE_MAP,
    prefer_bundled_price_map,
)
from judge.engine.settings import DEV_SECRET
from judge.server.auth import create_owner_token
from tests.helpers import EXAMPLES, REPO
from tests.pg import free_port

TOKEN = create_owner_token(owner="ops", secret=DEV_SECRET, audience="judge", ttl=timedelta(hours=1))
OWNER = {"Authorization": f"Bearer {TOKEN}"}
AUDIT = '''
import json, os, sys

_LOG = os.environ["JUDGE_TEST_NET_LOG"]
_LOOPBACK = ("127.", "::1", "localhost", "0.0.0.0")


def _note(kind, what):
    with open(_LOG, "a", encoding="utf-8") as out:
        out.write(json.dumps([kind, what]) + "\\n")


def _remote(host):
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    return isinstance(host, str) and not host.startswith(_LOOPBACK)


class _Watch:
    """Notes the setting when litellm is first looked for; leaves the finding to the others."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "litellm":
            _note("litellm", os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP"))
        return None


def _hook(event, args):
    if event == "socket.getaddrinfo" and _remote(args[0]):
        _note("network", str(args[0]))
        raise OSError("network blocked in this test")
    elif event == "socket.connect" and isinstance(args[1], tuple) and _remote(args[1][0]):
        _note("network", str(args[1][0]))
        raise OSError("network blocked in this test")


sys.meta_path.insert(0, _Watch)
sys.addaudithook(_hook)
'''


class Audited:
    """A folder with the audit ``sitecustomize`` and the log it writes."""

    def __init__(self, folder: Path) -> None:
        (folder / "sitecustomize.py").write_text(AUDIT, encoding="utf-8")
        self.folder = folder
        self.log = folder / "audit.log"

    def env(self, **extra: str) -> dict[str, str]:
        kept = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("JUDGE_", "OPENAI_", "LITELLM_"))
        }
        return {
            **kept,
            "PYTHONPATH": os.pathsep.join((str(self.folder), str(REPO))),
            "JUDGE_TEST_NET_LOG": str(self.log),
            **extra,
        }

    def records(self) -> list[list[Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def audited(tmp_path: Path) -> Audited:
    return Audited(tmp_path)


def _offline(records: list[list[Any]]) -> None:
    """litellm was imported with the bundled map chosen, and nothing reached past loopback."""
    assert [r for r in records if r[0] == "network"] == []
    assert [r[1] for r in records if r[0] == "litellm"] == ["True"]


def _wait_for(process: subprocess.Popen[str], log: Path, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and text in log.read_text(encoding="utf-8"):
            return
        if process.poll() is not None:
            raise AssertionError(f"the process ended early: {log.read_text(encoding='utf-8')}")
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {text!r}")


@pytest.fixture
def stopped() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        process.terminate()
        process.wait(30)


def test_a_worker_starts_on_the_bundled_price_map_without_the_network(
    audited: Audited, empty_database: str, stopped: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    err = tmp_path / "worker.err"
    env = audited.env(JUDGE_DATABASE_URL=empty_database, JUDGE_MODEL="scripted/0.7")
    env["JUDGE_DEV_MODE"] = "1"
    with err.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "judge", "worker", "--concurrency", "1"],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=sink,
            text=True,
        )
    stopped.append(process)
    # the worker imports litellm before it says it started
    _wait_for(process, err, "worker started", 120)
    _offline(audited.records())


def test_serve_starts_and_scores_without_the_network(
    audited: Audited, stopped: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    port = free_port()
    env = audited.env(
        JUDGE_DATABASE_URL=f"sqlite:///{tmp_path / 'judge.db'}",
        JUDGE_MODEL="scripted/0.7",
        JUDGE_DEV_MODE="1",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "judge", "serve", "--port", str(port), "--log-level", "warning"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    stopped.append(process)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.2)
    else:
        raise AssertionError("the service did not start")
    # a run submitted and scored inside the service
    base = f"http://127.0.0.1:{port}"
    run = json.loads((EXAMPLES / "haggle.json").read_text())
    assert httpx.post(f"{base}/api/evals/runs", json=run, headers=OWNER).status_code == 202
    url = f"{base}/api/evals/runs/{run['run_id']}"
    deadline = time.monotonic() + 120
    while httpx.get(url, headers=OWNER).json()["status"] != "scored":
        assert time.monotonic() < deadline, "the run was not scored"
        time.sleep(0.2)
    assert [r for r in audited.records() if r[0] == "network"] == []
    assert all(r[1] == "True" for r in audited.records() if r[0] == "litellm")


def test_judge_score_reads_no_price_list_from_the_network(audited: Audited) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "judge", "score", "--no-progress", str(EXAMPLES / "haggle.json")]
        + ["--judge", "scripted/0.7", "--json"],
        cwd=REPO,
        env=audited.env(JUDGE_DEV_MODE="1"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [r for r in audited.records() if r[0] == "network"] == []
    assert all(r[1] == "True" for r in audited.records() if r[0] == "litellm")


def test_an_owners_own_setting_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOCAL_PRICE_MAP, "False")
    prefer_bundled_price_map()
    kept = os.environ[LOCAL_PRICE_MAP]
    monkeypatch.delenv(LOCAL_PRICE_MAP)
    prefer_bundled_price_map()

    assert (kept, os.environ[LOCAL_PRICE_MAP]) == ("False", "True")


LIBRARY = """
import importlib, pkgutil
import judge
for info in pkgutil.walk_packages(judge.__path__, "judge."):
    if ".migrations" not in info.name and not info.name.endswith("__main__"):
        importlib.import_module(info.name)
from judge.engine.judging.providers.embedded import _handler_class
from judge.engine.judging import pricing
_handler_class()
pricing.price_map()
"""


def test_the_library_imports_litellm_only_with_the_bundled_map_chosen(audited: Audited) -> None:
    """Every module of the package imported, then the paths that import litellm themselves."""
    subprocess.run(
        [sys.executable, "-c", LIBRARY], cwd=REPO, env=audited.env(), check=True, timeout=300
    )
    _offline(audited.records())
