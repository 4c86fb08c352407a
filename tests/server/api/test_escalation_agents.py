"""No agent route shows escalation: every route an agent key reaches is called after an owner
set a target that sends every item to the owners (too few labels to reach it), as in
tests/server/api/test_labels_agents.py."""

from __future__ import annotations

from tests.conftest import owner_headers
from tests.server.api.test_agent_views import (
    REQUESTS,
    World,
    agent_routes,
    world,  # noqa: F401  (fixture)
)


def test_no_agent_route_shows_confidence_or_escalation(world: World) -> None:  # noqa: F811
    owner = owner_headers("escalation-owner-q4")
    body = {"seat": "buyer", "trait": "negotiation", "score": 1.0}
    for run_id in ("duel-1", "held-1"):
        posted = world.client.post(f"/api/evals/{run_id}/labels", json=body, headers=owner)
        assert posted.status_code == 201, posted.text
    target = world.client.put(
        "/api/evals/escalation/negotiation", json={"target": 0.9}, headers=owner
    )
    assert target.status_code == 200 and target.json()["reachable"] is False, target.text
    decisions = world.client.get("/api/evals/duel-1/escalation", headers=owner).json()
    assert {d["decided_by"] for d in decisions if d["trait"] == "negotiation"} == {"owners"}

    for method, path in sorted(agent_routes()):
        response = REQUESTS[method, path](world)
        assert response.status_code in (200, 201, 202), (path, response.text)
        for word in ("escalated_to", "low_judge_confidence", "low judge confidence", "decided_by"):
            assert word not in response.text, (path, word)
