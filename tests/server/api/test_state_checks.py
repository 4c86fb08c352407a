"""State checks in the service: scorecards carry the outcome; owners compare agents."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.checks.scenario import load_scenario
from judge.engine.checks.worlds import build_world, load_replay
from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import Settings
from judge.server.web import create_app
from tests.conftest import VERDICT, owner_headers, service_settings, wait_final

SHOP = Path(__file__).resolve().parents[3] / "scenarios" / "shop_refund"
RUNS = {"careful": "careful/pass", "hasty": "hasty/duplicate_payment"}


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    """A scenarios folder holding the shop, with two runs' worlds built into it."""
    root = tmp_path / "scenarios"
    shutil.copytree(SHOP, root / "shop_refund", ignore=shutil.ignore_patterns("runs"))
    scenario = load_scenario(root / "shop_refund" / "scenario.yaml")
    assert scenario.world is not None
    for path in RUNS.values():
        stem = Path(path).name
        build_world(scenario.world, load_replay(SHOP / "runs" / f"{path}.replay.yaml"), root, stem)
    return root


@pytest.fixture
def client(database_url: str, scenarios: Path) -> Iterator[TestClient]:
    settings: Settings = service_settings(database_url).model_copy(
        update={"scenarios_dir": scenarios}
    )
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    with TestClient(create_app(settings, backends=lambda model: judge)) as client:
        yield client


def _run(name: str, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHOP / "runs" / f"{RUNS[name]}.json").read_text())
    return {**data, **changes}


def _submit(client: TestClient, data: dict[str, Any]) -> None:
    owner = owner_headers()
    assert client.post("/api/evals/runs", json=data, headers=owner).status_code == 202
    assert wait_final(client, data["run_id"], owner)["status"] == "scored"


def test_the_owner_scorecard_carries_the_state_outcome(client: TestClient) -> None:
    _submit(client, _run("hasty"))
    card = client.get("/api/evals/shop-refund-hasty-s2/scorecard", headers=owner_headers()).json()
    state = card["state_outcome"]
    assert (state["outcome"], state["reward"], state["verdict"]) == ("rule_violated", -1, "fail")
    assert state["summary"]["duplicate_effects"] == 1


def test_owners_compare_two_agents_over_matched_runs(client: TestClient) -> None:
    _submit(client, _run("careful", run_id="careful-s7", seed=7))
    _submit(client, _run("hasty", run_id="hasty-s7", seed=7))
    response = client.get(
        "/api/evals/comparisons",
        params={"agent_a": "careful-agent", "agent_b": "hasty-agent"},
        headers=owner_headers(),
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert [(p["run_a"], p["run_b"]) for p in body["pairs"]] == [("careful-s7", "hasty-s7")]
    assert body["pairs"][0]["difference"] == 2.0  # verified (1) minus rule_violated (-1)
    assert body["unpaired"] == []


def test_comparing_an_agent_without_state_checks_names_it(client: TestClient) -> None:
    _submit(client, _run("careful", run_id="careful-s8", seed=8))
    response = client.get(
        "/api/evals/comparisons",
        params={"agent_a": "careful-agent", "agent_b": "nobody"},
        headers=owner_headers(),
    )
    assert response.status_code == 422
    assert "nobody" in response.text
