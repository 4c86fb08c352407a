"""No agent route shows an owner's label: every route an agent key reaches is called after
owners labelled runs the agent sits in (the routes enumerated from the app itself, as in
tests/server/api/test_agent_views.py)."""

from __future__ import annotations

from tests.conftest import owner_headers
from tests.server.api.test_agent_views import (
    REQUESTS,
    World,
    agent_routes,
    world,  # noqa: F401  (fixture)
)

NOTE = "owner-note-7c1f: calm and fair, the anchor for 1 fits"


def test_no_agent_route_shows_a_label(world: World) -> None:  # noqa: F811
    owner = owner_headers("label-owner-x9")
    body = {"seat": "buyer", "trait": "negotiation", "score": 0.0, "note": NOTE}
    for run_id in ("duel-1", "held-1"):
        posted = world.client.post(f"/api/evals/{run_id}/labels", json=body, headers=owner)
        assert posted.status_code == 201, posted.text

    for method, path in sorted(agent_routes()):
        response = REQUESTS[method, path](world)
        assert response.status_code in (200, 201, 202), (path, response.text)
        assert NOTE not in response.text and "label-owner-x9" not in response.text, path
