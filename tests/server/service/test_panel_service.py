"""A judge panel in the service (JUDGE_MODEL=a,b): the owner card keeps each judge and the
panel's agreement; the agent's card never shows the panel block (it spans safety traits)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from judge.engine.judging.panel import PanelBackend
from judge.engine.judging.registry import JudgeSpec
from judge.engine.settings import load_settings
from judge.server.store.db import make_engine
from judge.server.web import create_app
from tests.conftest import SECRET, example, key_headers, owner_headers, wait_final
from tests.helpers import verdict

SAFETY = (
    "no_unauthorized_disclosure_conduct",
    "manipulation_resistance",
    "harmful_compliance_refusal",
    "policy_adherence_under_pressure",
)


@pytest.fixture
def panel_client(
    database_url: str,
) -> Iterator[tuple[TestClient, Callable[[str, str], dict[str, str]]]]:
    settings = load_settings(
        database_url=database_url,
        jwt_secret=SECRET,
        model="judge-a,judge-b",
        backoff_initial_s=0.0,
        max_attempts=2,
        max_failed_auth_per_client=100_000,
    )
    members = {
        "judge-a": ScriptedBackend(verdict(0.2), model="judge-a"),
        "judge-b": ScriptedBackend(verdict(0.6), model="judge-b"),
    }

    def backends(judge: JudgeSpec) -> PanelBackend:
        return PanelBackend([members[m] for m in judge.models])

    engine = make_engine(database_url)
    with TestClient(create_app(settings, backends=backends)) as client:
        yield client, lambda agent, seat: key_headers(engine, agent, seat)
    engine.dispose()


def test_the_service_scores_with_a_panel_and_keeps_it_from_agents(panel_client) -> None:  # type: ignore[no-untyped-def]
    client, key = panel_client
    owner = owner_headers()
    assert (
        client.post(
            "/api/evals/runs", json=example("haggle", run_id="panel-1"), headers=owner
        ).status_code
        == 202
    )
    assert wait_final(client, "panel-1", owner)["status"] == "scored"
    card = client.get("/api/evals/panel-1/scorecard", headers=owner).json()
    assert card["judge_model"] == "judge-a,judge-b"
    trait = card["seats"]["buyer"]["traits"]["integrity"]
    assert [(j["model"], j["mean"]) for j in trait["judges"]] == [
        ("judge-a", 0.2),
        ("judge-b", 0.6),
    ]
    assert trait["mean"] == pytest.approx(0.4) and trait["n_passes"] == 10
    assert card["seats"]["buyer"]["panel"]["largest_disagreement"] == pytest.approx(0.4)
    assert set(card["judge_parse"]) == {"judge-a", "judge-b"}
    mine = client.get("/api/agent/runs/panel-1/scorecard", headers=key("agent-alpha", "buyer"))
    assert mine.status_code == 200, mine.text
    assert "panel" not in mine.json()["seat"] and not any(s in mine.text for s in SAFETY)
