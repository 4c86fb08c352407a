"""Selective escalation over HTTP on SQLite and PostgreSQL: an owner sets a trait's target and
reads the threshold, the held-out figures and the curves back; a run's decisions say who
decided; bad targets name the field; agent keys reach none of it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from tests.conftest import key_headers
from tests.server.service.escalation_world import TRAIT, load, tracking

ROUTE = f"/api/evals/escalation/{TRAIT}"


@pytest.fixture
def labelled(engine: Engine) -> None:
    load(engine, tracking(n=48))


def test_an_owner_sets_a_target_and_reads_the_threshold_and_held_out_figures(
    client: TestClient, owner: dict[str, str], labelled: None
) -> None:
    put = client.put(ROUTE, json={"target": 0.8, "risk": 0.1, "seed": 0}, headers=owner)
    (listed,) = client.get("/api/evals/escalation", headers=owner).json()

    assert put.status_code == 200, put.text
    found = put.json()
    assert found["threshold"] == pytest.approx(0.9) and found["reachable"] is True
    assert found["measure"] == "anchor agreement" and found["set_by"] == "owner:ops"
    assert found["held_out"]["agreement"] == 1.0 and found["held_out_meets_target"] is True
    assert [p["threshold"] for p in found["curve_held_out"]] == [1.0, 0.9, 0.0]
    assert listed == found


def test_a_runs_decisions_say_who_decided_each_seat_trait(
    client: TestClient, owner: dict[str, str], labelled: None
) -> None:
    client.put(ROUTE, json={"target": 0.8}, headers=owner)

    (sure,) = client.get("/api/evals/esc-000/escalation", headers=owner).json()
    (unsure,) = client.get("/api/evals/esc-003/escalation", headers=owner).json()
    missing = client.get("/api/evals/no-such-run/escalation", headers=owner)

    assert (sure["decided_by"], sure["score"], sure["escalated_to"]) == ("scripted-sure", 1.0, None)
    assert (unsure["decided_by"], unsure["reason"]) == ("owners", "low judge confidence")
    assert unsure["confidence"]["spread"] == 1.0 and missing.status_code == 404


def test_a_target_out_of_range_or_an_unknown_field_names_the_problem(
    client: TestClient, owner: dict[str, str], labelled: None
) -> None:
    high = client.put(ROUTE, json={"target": 1.5}, headers=owner)
    typo = client.put(ROUTE, json={"target": 0.8, "risks": 0.1}, headers=owner)
    nobody = client.put("/api/evals/escalation/integrity", json={"target": 0.8}, headers=owner)

    assert high.status_code == 422 and "target" in high.text
    assert typo.status_code == 422 and "risks" in typo.text
    assert nobody.status_code == 422 and "no labelled item of 'integrity'" in nobody.text
    assert client.get("/api/evals/escalation", headers=owner).json() == []


def test_dropping_a_target_answers_204_then_404(
    client: TestClient, owner: dict[str, str], labelled: None
) -> None:
    client.put(ROUTE, json={"target": 0.8}, headers=owner)

    assert client.delete(ROUTE, headers=owner).status_code == 204
    assert client.delete(ROUTE, headers=owner).status_code == 404


def test_an_agent_key_reaches_no_escalation_route_and_its_card_says_nothing_of_it(
    client: TestClient, owner: dict[str, str], engine: Engine, labelled: None
) -> None:
    client.put(ROUTE, json={"target": 0.8}, headers=owner)
    agent = key_headers(engine, "agent-alpha", "buyer")

    answers = [
        client.get("/api/evals/escalation", headers=agent),
        client.put(ROUTE, json={"target": 0.5}, headers=agent),
        client.delete(ROUTE, headers=agent),
        client.get("/api/evals/esc-003/escalation", headers=agent),
    ]
    card = client.get("/api/agent/runs/esc-003/scorecard", headers=agent)

    assert [a.status_code for a in answers] == [401, 401, 401, 401]
    assert card.status_code == 200, card.text
    for word in ("escalated_to", "confidence", "decided_by", "threshold"):
        assert word not in card.text
