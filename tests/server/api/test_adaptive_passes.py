"""Adaptive passes on the service: set in platform config, a new era, the card says why."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from tests.conftest import example

POLICY = {"floor": 5, "max": 9, "spread": 0.1}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_policy_set_in_config_opens_an_era_and_scores_the_next_run_adaptively(
    client: TestClient, owner: dict[str, str], judge: ScriptedBackend, scored: Any
) -> None:
    fixed = client.put(
        "/api/evals/config/academy_eval_judge_denoise", json={"value": {"passes": 5}}, headers=owner
    )
    adaptive = client.put(
        "/api/evals/config/academy_eval_judge_denoise",
        json={"value": {"passes": POLICY}},
        headers=owner,
    )
    client.put(
        "/api/evals/config/academy_judge_rubrics",
        json={"value": {"traits": ["negotiation", "integrity"]}},
        headers=owner,
    )
    final = scored(example("haggle"))
    card = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()

    assert fixed.json()["era_changed"] is False  # five fixed passes: the era it was
    assert adaptive.json()["era_changed"] is True
    assert adaptive.json()["value"]["adaptive"] == POLICY
    assert card["measurement_era"]["denoise"]["adaptive"] == POLICY
    assert Counter(r.label for r in judge.history) == {"negotiation": 5, "integrity": 5}
    assert final["passes_total"] == 2 * 9  # the most the policy can take
    trait = card["seats"]["buyer"]["traits"]["integrity"]
    assert trait["adaptive"]["reason"] == "agreed" and trait["n_passes"] == 5


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_policy_below_the_floor_is_refused_naming_the_field(
    client: TestClient, owner: dict[str, str]
) -> None:
    response = client.put(
        "/api/evals/config/academy_eval_judge_denoise",
        json={"value": {"passes": {"floor": 5, "max": 3, "spread": 0.1}}},
        headers=owner,
    )
    assert response.status_code == 422
    assert "passes: max (3) is below floor (5)" in response.json()["detail"]
