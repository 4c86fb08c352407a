"""The console's compare page shows stored pairwise verdicts side by side, both orders."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from tests.conftest import example, owner_headers
from tests.server.api.test_pairwise import BODY, Judge
from tests.server.console.test_pages import owner_token, sign_in


@pytest.fixture
def judge() -> ScriptedBackend:
    return Judge()


@pytest.fixture
def judged(client: TestClient, scored: Any) -> TestClient:
    for agent in ("agent-a", "agent-b"):
        data = example("haggle", run_id=f"{agent}-1", seed=1)
        data["seats"][0]["agent_id"] = agent
        assert scored(data)["status"] == "scored"
    answer = client.post("/api/evals/comparisons", json=BODY, headers=owner_headers())
    assert answer.status_code == 200, answer.text
    assert sign_in(client, owner_token()).status_code == 303
    return client


def page(client: TestClient, trait: str) -> str:
    params = {"agent_a": "agent-a", "agent_b": "agent-b", "trait": trait}
    response = client.get("/console/compare", params=params)
    assert response.status_code == 200
    return response.text


def test_each_pair_shows_both_orders_the_outcome_and_the_flip(judged: TestClient) -> None:
    html = page(judged, "negotiation")
    row = re.search(r'<table class="runs" id="pairwise-pairs">.*?</tbody>', html, re.DOTALL)
    assert row is not None
    cells = re.findall(r"<td>([^<]*)</td>", row.group(0))
    assert ["a (5/0/0)", "b (0/5/0)", "tie", "yes"] == cells[-4:]
    assert "flips 1 of 1 decisive pairs (1.00, 95% 0.21–1.00)" in html


def test_a_trait_never_judged_says_how_to_judge_it(judged: TestClient) -> None:
    html = page(judged, "integrity")
    assert "POST /api/evals/comparisons with mode pairwise first" in html


def test_the_calibration_page_shows_each_judges_position_bias(judged: TestClient) -> None:
    html = judged.get("/console/calibration").text
    section = html.split('id="position-bias"', 1)[1]
    cells = re.findall(r'<td class="n">([^<]*)', section)
    assert cells[:3] == ["1", "1 / 1", "1.00 [0.21, 1.00]"]
    assert cells[3:5] == ["2 / 2", "1.00 [0.34, 1.00]"]


def test_agents_without_state_checks_get_a_note_not_an_error(judged: TestClient) -> None:
    html = page(judged, "negotiation")

    assert 'class="error"' not in html
    assert (
        '<p class="note" id="matched-note">No paired state-check test: no scored runs with ' in html
    )
