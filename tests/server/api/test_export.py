"""RL trajectory export routes: JSONL, rewards under the platform weights, seat scoping."""

from __future__ import annotations

import json
from typing import Any

from judge.core.domain.run import Run
from tests.factories import near, run, scorecard, seat
from tests.scripted_service import Service


def _run(run_id: str = "t1") -> Run:
    return run(
        run_id,
        transcript=[
            {"turn": 1, "seat": "buyer", "kind": "action", "name": "offer", "args": {"price": 40}},
            {"turn": 2, "seat": "buyer", "kind": "done"},
        ],
        trace=[
            {"turn": 1, "seat": "buyer", "checks_passed": 2, "checks_failed": 1, "progress": 0.2},
            {"turn": 1, "seat": "seller", "checks_passed": 1},
            {
                "turn": 2,
                "seat": "buyer",
                "checks_passed": 1,
                "conditions_met": ["deal_closed"],
                "progress": 0.6,
            },
        ],
    )


def _lines(answer: Any) -> list[dict[str, Any]]:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in answer.text.splitlines()]


def test_owner_exports_every_seat_with_rewards_under_the_default_weights(svc: Service) -> None:
    svc.store_scored(_run())
    rows = _lines(svc.client.get("/api/evals/t1/trajectory", headers=svc.owner))
    assert [(r["seat"], r["turn"], r["done"]) for r in rows] == [
        ("buyer", 1, False),
        ("seller", 1, True),
        ("buyer", 2, True),
    ]
    # 2*0.1 - 0.05 + 0.2*0.5 = 0.25 ; 1*0.1 = 0.1 ; 0.1 + 1.0 + 0.4*0.5 = 1.3
    assert [r["reward"] for r in rows] == [near(0.25), near(0.1), near(1.3)]
    assert rows[0]["action"] == [{"name": "offer", "args": {"price": 40}, "status": "ok"}]


def test_rewards_follow_the_platform_reward_weights(svc: Service) -> None:
    svc.store_scored(_run())
    weights = {
        "w_check_pass": 1.0,
        "w_check_fail": -1.0,
        "w_condition_flip": 10.0,
        "w_progress": 0.0,
    }
    put = svc.client.put(
        "/api/evals/config/eval_reward_weights", json={"value": weights}, headers=svc.owner
    )
    assert put.status_code == 200, put.text
    rows = _lines(svc.client.get("/api/evals/t1/trajectory", headers=svc.owner))
    assert [r["reward"] for r in rows] == [1.0, 1.0, 11.0]


def test_an_agent_key_exports_only_its_own_seat(svc: Service) -> None:
    svc.store_scored(_run())
    buyer = _lines(
        svc.client.get("/api/agent/runs/t1/trajectory", headers=svc.agent("agent-alpha", "buyer"))
    )
    assert [(r["seat"], r["step"]) for r in buyer] == [("buyer", 0), ("buyer", 1)]
    stranger = svc.client.get(
        "/api/agent/runs/t1/trajectory", headers=svc.agent("agent-alpha", "seller")
    )
    assert stranger.status_code == 404


def test_a_submission_exports_its_agents_steps_over_its_runs(svc: Service) -> None:
    era = svc.current_era_id()
    for run_id in ("t1", "t2"):
        svc.store_scored(_run(run_id), scorecard(run_id, seat(), era_id=era))
    body = {
        "submission_id": "sub-t",
        "scenario_id": "market-haggle",
        "agent_id": "agent-alpha",
        "run_ids": ["t1", "t2"],
    }
    svc.client.post("/api/evals/submissions", json=body, headers=svc.owner)
    rows = _lines(svc.client.get("/api/evals/submissions/sub-t/trajectory", headers=svc.owner))
    assert [(r["run_id"], r["seat"], r["turn"]) for r in rows] == [
        ("t1", "buyer", 1),
        ("t1", "buyer", 2),
        ("t2", "buyer", 1),
        ("t2", "buyer", 2),
    ]
    key = svc.agent("agent-alpha", "buyer")
    assert len(_lines(svc.client.get("/api/agent/submissions/sub-t/trajectory", headers=key))) == 4
    assert (
        svc.client.get(
            "/api/agent/submissions/sub-t/trajectory", headers=svc.agent("agent-beta", "buyer")
        ).status_code
        == 404
    )
