"""Per-seat holds through the API on SQLite and PostgreSQL: when one scored seat of a run
carries judge-directed text, that seat alone is held; the run's other seat keeps its score,
its leaderboard row and its stability; owners decide per seat; an unscannable run is held
whole; an agent reads only its own seat's hold (docs/integrity.md, "Held for review")."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.integrity import SeatTamper
from judge.core.scoring.run_summary import TAMPER_REASON, UNSCANNABLE_REASON
from tests.conftest import example
from tests.tamper_cards import DETECTOR, EXCERPT, flag_stored

BOARD = "/api/leaderboards/campsite-split"
STABILITY = "/api/evals/stability/campsite-split"
QUEUE = "/api/evals/safety-review"


def review(run_id: str) -> str:
    return f"/api/evals/{run_id}/safety-review"


def _submit(client: TestClient, owner: dict[str, str], agent_id: str, run_ids: list[str]) -> None:
    sid = f"sub-{agent_id}"
    body = {
        "submission_id": sid,
        "scenario_id": "campsite-split",
        "agent_id": agent_id,
        "run_ids": run_ids,
    }
    assert client.post("/api/evals/submissions", json=body, headers=owner).status_code == 201
    done = client.post(f"/api/evals/submissions/{sid}/finalize", json={}, headers=owner)
    assert done.status_code == 200, done.text


def two_seat_run(run_id: str) -> dict[str, Any]:
    """The two-seat example with enough actions that neither seat is participation-gated."""
    data = example("two_seats_partial_credit", run_id=run_id)
    checks = [
        {"turn": t, "seat": s, "kind": "action", "name": "check_gear", "args": {}, "status": "ok"}
        for t in (1, 2, 3)
        for s in ("north", "south")
    ]
    data["transcript"] = sorted(data["transcript"] + checks, key=lambda e: e["turn"])
    return data


@pytest.fixture
def framed(client: TestClient, owner: dict[str, str], scored: Any, engine: Engine) -> None:
    """Runs ``fair-1`` and ``framed-1`` seat agent-alpha (north) against agent-gamma (south);
    in ``framed-1`` only alpha's seat carries judge-directed text. Both agents' runs are in
    finalized owner submissions."""
    for run_id in ("fair-1", "framed-1"):
        assert scored(two_seat_run(run_id))["status"] == "scored"
    flag_stored(engine, "framed-1", "north")
    for agent_id in ("agent-alpha", "agent-gamma"):
        _submit(client, owner, agent_id, ["fair-1", "framed-1"])


def board_runs(client: TestClient, owner: dict[str, str]) -> dict[str, list[str]]:
    rows = client.get(BOARD, headers=owner).json()["ranked"]
    return {row["agent_id"]: row["run_ids"] for row in rows}


def stable_runs(client: TestClient, owner: dict[str, str], agent_id: str) -> list[str]:
    params = {"agent_id": agent_id, "seed": 7}
    report = client.get(STABILITY, params=params, headers=owner).json()
    return sorted(report["run_ids"])


def decide(
    client: TestClient, owner: dict[str, str], run_id: str, decision: str, seat: str | None
) -> Any:
    body = {"decision": decision} | ({"seat": seat} if seat else {})
    return client.post(review(run_id), json=body, headers=owner)


def test_the_honest_seat_keeps_its_leaderboard_row_and_stability(
    client: TestClient, owner: dict[str, str], framed: Any
) -> None:
    boards = board_runs(client, owner)

    assert boards["agent-gamma"] == ["fair-1", "framed-1"]
    assert boards["agent-alpha"] == ["fair-1"]
    assert stable_runs(client, owner, "agent-gamma") == ["fair-1", "framed-1"]
    assert stable_runs(client, owner, "agent-alpha") == ["fair-1"]


def test_the_honest_seats_card_is_scored_and_not_held(
    client: TestClient, owner: dict[str, str], framed: Any, agent_key: Any
) -> None:
    gamma = client.get(
        "/api/agent/runs/framed-1/scorecard", headers=agent_key("agent-gamma", "south")
    )
    alpha = client.get(
        "/api/agent/runs/framed-1/scorecard", headers=agent_key("agent-alpha", "north")
    )
    owner_card = client.get("/api/evals/framed-1/scorecard", headers=owner).json()

    assert gamma.status_code == 200
    assert gamma.json()["held_for_review"] is False
    assert gamma.json()["seat"]["composite"] == owner_card["seats"]["south"]["composite"]
    assert gamma.json()["seat"]["composite"] is not None
    assert alpha.json()["held_for_review"] is True


def test_no_agent_reads_another_seats_hold_or_findings(
    client: TestClient, owner: dict[str, str], framed: Any, agent_key: Any
) -> None:
    gamma = agent_key("agent-gamma", "south")
    answers = [
        client.get("/api/agent/runs/framed-1/scorecard", headers=gamma),
        client.get(BOARD, headers=gamma),
        client.get("/api/agent/stability/campsite-split", params={"seed": 7}, headers=gamma),
    ]

    for answer in answers:
        assert answer.status_code == 200, answer.text
        for secret in (EXCERPT, DETECTOR, "tamper", "held_seats", "integrity_flagged"):
            assert secret not in answer.text
    assert '"held_for_review":true' not in answers[0].text.replace(" ", "")


def test_the_review_lists_the_held_seat_and_the_queue_entry_too(
    client: TestClient, owner: dict[str, str], framed: Any
) -> None:
    status = client.get(review("framed-1"), headers=owner).json()
    queue = {e["run_id"]: e for e in client.get(QUEUE, headers=owner).json()}

    held = [
        {
            "seat": "north",
            "agent_id": "agent-alpha",
            "reason": "tamper",
            "state": "none",
            "held_for_review": True,
        }
    ]
    assert (status["held_for_review"], status["reasons"], status["held_seats"]) == (
        True,
        [TAMPER_REASON],
        held,
    )
    assert queue["framed-1"]["held_seats"] == held
    assert "fair-1" not in queue or queue["fair-1"]["held_seats"] == []


def test_clearing_the_held_seat_releases_it_and_is_recorded_per_seat(
    client: TestClient, owner: dict[str, str], framed: Any, agent_key: Any
) -> None:
    answer = decide(client, owner, "framed-1", "cleared", "north")

    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert [(r["decision"], r["seat"]) for r in body["reviews"]] == [("cleared", "north")]
    assert body["held_seats"][0]["state"] == "cleared"
    assert body["held_for_review"] is False
    assert board_runs(client, owner)["agent-alpha"] == ["fair-1", "framed-1"]
    alpha = agent_key("agent-alpha", "north")
    mine = client.get("/api/agent/runs/framed-1/scorecard", headers=alpha).json()
    assert mine["held_for_review"] is False
    assert client.get(f"{QUEUE}?state=open", headers=owner).json() == []


def test_keeping_a_seat_held_leaves_the_other_seat_counted(
    client: TestClient, owner: dict[str, str], framed: Any
) -> None:
    assert decide(client, owner, "framed-1", "escalated", "north").status_code == 201

    boards = board_runs(client, owner)
    assert (boards["agent-alpha"], boards["agent-gamma"]) == (["fair-1"], ["fair-1", "framed-1"])
    [entry] = client.get(f"{QUEUE}?state=escalated", headers=owner).json()
    assert entry["held_seats"][0]["state"] == "escalated"


def test_a_decision_on_a_seat_that_is_not_flagged_is_refused(
    client: TestClient, owner: dict[str, str], framed: Any
) -> None:
    answer = decide(client, owner, "framed-1", "cleared", "south")

    assert answer.status_code == 409
    assert "seat 'south'" in answer.json()["detail"] and "north" in answer.json()["detail"]
    assert client.get(review("framed-1"), headers=owner).json()["reviews"] == []


def test_a_whole_run_decision_applies_to_every_held_seat(
    client: TestClient, owner: dict[str, str], framed: Any, engine: Engine
) -> None:
    flag_stored(engine, "framed-1", "south")  # now both seats are flagged
    assert board_runs(client, owner) == {"agent-alpha": ["fair-1"], "agent-gamma": ["fair-1"]}

    assert decide(client, owner, "framed-1", "cleared", None).status_code == 201

    status = client.get(review("framed-1"), headers=owner).json()
    assert [(h["seat"], h["state"]) for h in status["held_seats"]] == [
        ("north", "cleared"),
        ("south", "cleared"),
    ]
    assert board_runs(client, owner)["agent-gamma"] == ["fair-1", "framed-1"]


def test_an_unscannable_run_is_held_whole_and_not_decidable_per_seat(
    client: TestClient, owner: dict[str, str], framed: Any, engine: Engine
) -> None:
    unscannable = SeatTamper(flagged=True, unscannable=True, detector_version=DETECTOR)
    flag_stored(engine, "fair-1", "north", unscannable)
    flag_stored(engine, "fair-1", "south", unscannable)

    status = client.get(review("fair-1"), headers=owner).json()
    refused = decide(client, owner, "fair-1", "cleared", "south")

    assert status["reasons"] == [UNSCANNABLE_REASON]
    assert [(h["seat"], h["reason"], h["held_for_review"]) for h in status["held_seats"]] == [
        ("north", "unscannable", True),
        ("south", "unscannable", True),
    ]
    assert board_runs(client, owner)["agent-gamma"] == ["framed-1"]
    assert refused.status_code == 409 and "held whole" in refused.json()["detail"]
