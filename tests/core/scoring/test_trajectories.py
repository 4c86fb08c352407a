"""RL trajectory export: per-step actions, rewards under the default weights, done, JSONL."""

from __future__ import annotations

import json

from judge.core.domain.config import RewardWeights
from judge.core.domain.run import Run
from judge.core.scoring.trajectories import to_jsonl, trajectory
from tests.factories import near, run

WEIGHTS = RewardWeights()  # 0.1, -0.05, 1.0, 0.5 (docs/scoring.md)


def _run(run_id: str = "haggle-0007") -> Run:
    return run(
        run_id,
        transcript=[
            {"turn": 1, "seat": "seller", "kind": "message", "content": "90 coins."},
            {"turn": 1, "seat": "seller", "kind": "done"},
            {"turn": 1, "seat": "buyer", "kind": "action", "name": "offer", "args": {"price": 40}},
            {
                "turn": 2,
                "seat": "buyer",
                "kind": "action",
                "name": "offer",
                "args": {"price": 55},
                "status": "rejected",
            },
            {"turn": 2, "seat": "buyer", "kind": "action", "name": "accept", "args": {}},
            {"turn": 3, "seat": "buyer", "kind": "message", "content": "Deal."},
        ],
        trace=[
            {"turn": 1, "seat": "buyer", "checks_passed": 2, "checks_failed": 1, "progress": 0.2},
            {"turn": 1, "seat": "seller", "checks_passed": 1, "progress": 0.5},
            {
                "turn": 2,
                "seat": "buyer",
                "checks_passed": 1,
                "conditions_met": ["deal_closed"],
                "progress": 0.6,
            },
            {
                "turn": 3,
                "seat": "buyer",
                "checks_failed": 2,
                "conditions_met": ["deal_closed", "price_under_60"],
                "progress": 1.0,
            },
        ],
    )


def test_rewards_follow_the_spec_weights() -> None:
    rows = trajectory(_run(), WEIGHTS, seats={"buyer"})
    # 2*0.1 + 1*(-0.05) + 0*1.0 + 0.2*0.5 = 0.25
    # 1*0.1 + 0*(-0.05) + 1*1.0 + (0.6-0.2)*0.5 = 1.3
    # 0*0.1 + 2*(-0.05) + 1*1.0 + (1.0-0.6)*0.5 = 1.1
    assert [r.reward for r in rows] == [near(v) for v in (0.25, 1.3, 1.1)]
    assert [r.components.new_conditions for r in rows] == [[], ["deal_closed"], ["price_under_60"]]
    assert [r.components.progress_delta for r in rows] == [near(v) for v in (0.2, 0.4, 0.4)]


def test_each_step_carries_the_seats_actions_at_that_turn() -> None:
    rows = trajectory(_run(), WEIGHTS, seats={"buyer"})
    assert [[(a.name, a.args, a.status) for a in r.action] for r in rows] == [
        [("offer", {"price": 40}, "ok")],
        [("offer", {"price": 55}, "rejected"), ("accept", {}, "ok")],
        [],
    ]
    assert [(r.step, r.turn, r.agent_id) for r in rows] == [
        (0, 1, "agent-alpha"),
        (1, 2, "agent-alpha"),
        (2, 3, "agent-alpha"),
    ]


def test_done_is_true_on_the_seats_last_step_and_on_a_done_event() -> None:
    rows = trajectory(_run(), WEIGHTS)
    assert [(r.seat, r.turn, r.done) for r in rows] == [
        ("buyer", 1, False),
        ("seller", 1, True),  # declared done at turn 1 (and its last step)
        ("buyer", 2, False),
        ("buyer", 3, True),
    ]
    assert rows[1].reward == near(0.1 + 0.25)  # seller's own deltas


def test_jsonl_has_one_step_per_line() -> None:
    rows = trajectory(_run(), WEIGHTS, seats={"buyer"})
    text = to_jsonl(rows)
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == 3
    first = json.loads(lines[0])
    assert first == {
        "run_id": "haggle-0007",
        "seat": "buyer",
        "agent_id": "agent-alpha",
        "step": 0,
        "turn": 1,
        "action": [{"name": "offer", "args": {"price": 40}, "status": "ok"}],
        "reward": rows[0].reward,
        "components": {
            "checks_passed": 2,
            "checks_failed": 1,
            "new_conditions_count": 0,
            "new_conditions": [],
            "progress_delta": 0.2,
        },
        "done": False,
    }


def test_a_run_without_trace_exports_nothing() -> None:
    assert to_jsonl(trajectory(run(), WEIGHTS)) == ""
