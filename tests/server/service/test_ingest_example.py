"""The worked example of docs/integrations.md ("Worked example: scoring live traces") as a
test: ``examples/otel_agent.py`` runs as its own process, configured only by the OpenTelemetry
SDK's ``OTEL_EXPORTER_OTLP_*`` variables, and exports to the app served by uvicorn on loopback
(SQLite and PostgreSQL, the scripted test judge); the rule made from the docs' JSON scores
exactly the conversations its hash picks, and the scores are read back from the API and the
rule's console page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("opentelemetry.exporter.otlp.proto.http")

from judge.server.service.rules import sampled
from judge.server.store import ingest as ingest_repo
from judge.server.store.db import make_engine, transaction
from tests.conftest import owner_headers, service_settings, serving
from tests.helpers import REPO
from tests.server.console.test_pages import owner_token

DOC = REPO / "docs" / "integrations.md"
EXAMPLE = REPO / "examples" / "otel_agent.py"
HEADING = "## Worked example: scoring live traces"
CONVERSATIONS = 16


def documented_rule() -> dict[str, Any]:
    """The rule's JSON exactly as the worked example shows it."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :]
    section = section[: section.index("\n## ", len(HEADING))]
    block = section.split("```json\n", 1)[1].split("```", 1)[0]
    rule: dict[str, Any] = json.loads(block)
    return rule


@pytest.fixture
def served(database_url: str) -> Iterator[str]:
    settings = service_settings(database_url).model_copy(
        update={"ingest_quiet_s": 0.3, "ingest_sweep_s": 0.1}
    )
    with serving(settings) as url:
        yield url


def _run_agent(url: str, key: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env |= {
        "OTEL_EXPORTER_OTLP_ENDPOINT": url,
        "OTEL_EXPORTER_OTLP_HEADERS": f"x-judge-ingest-key={key}",
        "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
    }
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--conversations", str(CONVERSATIONS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Failed to export" not in done.stderr, done.stderr
    return done.stdout.split()


def _until(check: Any, what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _console(client: httpx.Client, url: str, path: str) -> str:
    """A console page, signed in as an owner through the sign-in form."""
    origin = {"Origin": url}
    form = client.get("/console/sign-in").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form)
    assert csrf is not None
    client.post(
        "/console/sign-in", data={"csrf": csrf.group(1), "token": owner_token()}, headers=origin
    )
    return client.get(path).text


def test_the_worked_example_agent_is_scored_by_the_documented_rule(
    served: str, database_url: str
) -> None:
    owner = owner_headers()
    spec = documented_rule()
    with httpx.Client(base_url=served, headers=owner, timeout=30) as client:
        key = client.post("/api/ingest/keys", json={"source": "shop-bot"}).json()["key"]
        made = client.post("/api/evals/rules", json=spec)
        assert made.status_code == 201, made.text
        rule = made.json()

        traces = _run_agent(served, key)
        engine = make_engine(database_url)
        try:

            def all_decided() -> bool:
                with transaction(engine) as session:
                    rows = [
                        ingest_repo.get_trace(session, source="shop-bot", trace_id=t)
                        for t in traces
                    ]
                return all(r is not None and r.state == "done" for r in rows)

            _until(all_decided, "every conversation to be decided")
        finally:
            engine.dispose()
        runs = client.get(f"/api/evals/rules/{rule['rule_id']}/runs").json()

        def scored(run_id: str) -> dict[str, Any] | None:
            body: dict[str, Any] = client.get(f"/api/evals/runs/{run_id}").json()
            return body if body["status"] in ("scored", "not_scored") else None

        statuses = [_until(lambda r=r: scored(r["run_id"]), "a run to be scored") for r in runs]
        cards = [client.get(f"/api/evals/{r['run_id']}/scorecard").json() for r in runs]
        page = _console(client, served, f"/console/rules/{rule['rule_id']}")

    picked = {t for t in traces if sampled(t, rate=spec["sample_rate"], seed=spec["seed"])}
    assert len(traces) == len(set(traces)) == CONVERSATIONS
    assert 0 < len(picked) < CONVERSATIONS  # half, by the hash: some picked, some not
    assert {r["trace_id"] for r in runs} == picked
    assert all(r["run_id"] == f"{rule['rule_id']}-shop-bot-{r['trace_id']}" for r in runs)
    assert all(r["traits"] == spec["traits"] and r["rule_version"] == 1 for r in runs)
    assert {s["status"] for s in statuses} == {"scored"}
    assert {s["leaderboard_class"] for s in statuses} == {"online"}
    for card in cards:
        seat = card["seats"]["agent"]
        assert seat["agent_id"] == "shop-helper"
        assert sorted(seat["traits"]) == sorted(spec["traits"])
        assert {t["mean"] for t in seat["traits"].values()} == {0.7}  # the scripted verdict
    for r in runs:
        assert f'data-run="{r["run_id"]}"' in page
    assert f"Runs it made <small>{len(picked)}</small>" in page
