"""`judge align` over the API on SQLite and PostgreSQL (docs/alignment.md): owners label twelve
runs, a proposal proves each candidate on the held-out runs, only a proven candidate is adopted
and only on the owner's command, adoption opens a new era with its evidence kept, and no agent
key reaches any of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import Settings
from judge.server.web import create_app
from tests.align_judges import TRAIT, exemplar_learner, flat_judge, label_runs
from tests.conftest import owner_headers

RUNS = 12
OWNER = owner_headers("aligner")


@pytest.fixture
def judge() -> ScriptedBackend:
    return ScriptedBackend(exemplar_learner, model="scripted-test-judge")


@pytest.fixture
def labelled(settings: Settings, judge: ScriptedBackend) -> Iterator[TestClient]:
    """Twelve scored runs, one trait judged, each labelled by an owner with a note."""
    app = create_app(settings, backends=lambda model: judge)
    with TestClient(app) as client:
        label_runs(client, OWNER, RUNS)
        yield client


def current_era(client: TestClient) -> str:
    eras = client.get("/api/evals/eras", headers=OWNER).json()
    return str(eras[-1]["era_id"])


def candidates(body: dict[str, Any]) -> dict[str, Any]:
    return {c["kind"]: c for c in body["proposal"]["candidates"]}


def test_a_proven_candidate_is_adopted_on_command_into_a_new_era(labelled: TestClient) -> None:
    client = labelled
    made = client.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER)
    assert made.status_code == 201, made.text
    body = made.json()
    split = body["proposal"]["split"]
    assert split["seed"] == 39 and len(split["held_out"]) == 6
    assert set(split["held_out"]).isdisjoint(split["selection"])
    proof = candidates(body)["exemplars"]["proof"]
    assert proof["adoptable"] is True and proof["mae_gain"]["low"] > 0
    assert proof["candidate"]["judge"]["mae"] == 0.0
    assert client.get("/api/evals/rubrics/negotiation", headers=OWNER).status_code == 404
    before = current_era(client)

    adopted = client.post(
        f"/api/evals/alignments/{body['id']}/adopt", json={"kind": "exemplars"}, headers=OWNER
    )

    assert adopted.status_code == 200, adopted.text
    done = adopted.json()
    assert (done["adopted_kind"], done["adopted_by"], done["rubric_version"]) == (
        "exemplars",
        "owner:aligner",
        1,
    )
    assert done["era_before"] == before and done["era_after"] == current_era(client) != before
    rubric = client.get("/api/evals/rubrics/negotiation", headers=OWNER).json()["current"]
    assert "Examples the owners scored" in rubric["definition"]
    assert rubric["definition"] == candidates(done)["exemplars"]["rubric"]["definition"]
    kept = client.get("/api/evals/alignments", headers=OWNER).json()
    assert [k["id"] for k in kept] == [body["id"]] and kept[0]["era_after"] == done["era_after"]
    again = client.post(
        f"/api/evals/alignments/{body['id']}/adopt", json={"kind": "anchors"}, headers=OWNER
    )
    assert again.status_code == 409 and "adopted already" in again.json()["detail"]


def test_nothing_is_adopted_from_a_judge_that_cannot_improve(
    labelled: TestClient, judge: ScriptedBackend
) -> None:
    judge.default = flat_judge
    made = labelled.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER).json()
    assert not any(c["proof"]["adoptable"] for c in made["proposal"]["candidates"])
    before = current_era(labelled)

    refused = labelled.post(
        f"/api/evals/alignments/{made['id']}/adopt", json={"kind": "exemplars"}, headers=OWNER
    )

    assert refused.status_code == 409
    assert "does not lie above 0" in refused.json()["detail"]
    assert current_era(labelled) == before
    assert labelled.get("/api/evals/rubrics/negotiation", headers=OWNER).status_code == 404
    kept = labelled.get(f"/api/evals/alignments/{made['id']}", headers=OWNER).json()
    assert kept["adopted_kind"] is None


def test_a_trait_no_owner_labelled_is_refused_naming_the_fix(labelled: TestClient) -> None:
    found = labelled.post("/api/evals/alignments", json={"trait": "integrity"}, headers=OWNER)

    assert found.status_code == 404
    assert "no owner has labelled 'integrity'" in found.json()["detail"]


def test_no_agent_key_reaches_an_alignment(labelled: TestClient, agent_key: Any) -> None:
    made = labelled.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER).json()
    agent = agent_key("agent-alpha", "buyer")
    calls = [
        labelled.post("/api/evals/alignments", json={"trait": TRAIT}, headers=agent),
        labelled.get("/api/evals/alignments", headers=agent),
        labelled.get(f"/api/evals/alignments/{made['id']}", headers=agent),
        labelled.post(
            f"/api/evals/alignments/{made['id']}/adopt", json={"kind": "exemplars"}, headers=agent
        ),
    ]

    assert [c.status_code for c in calls] == [401, 401, 401, 401]
    assert all("buyer" not in c.text and "Examples" not in c.text for c in calls)
    kept = labelled.get(f"/api/evals/alignments/{made['id']}", headers=OWNER).json()
    assert kept["adopted_kind"] is None


def test_adoption_is_refused_while_custom_rubrics_are_switched_off(labelled: TestClient) -> None:
    off = {"value": {"traits": [TRAIT], "use_custom": False}}
    assert labelled.put("/api/evals/config/academy_judge_rubrics", json=off, headers=OWNER)
    made = labelled.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER).json()
    before = current_era(labelled)

    refused = labelled.post(
        f"/api/evals/alignments/{made['id']}/adopt", json={"kind": "exemplars"}, headers=OWNER
    )

    assert refused.status_code == 409 and "use_custom false" in refused.json()["detail"]
    assert current_era(labelled) == before
    assert labelled.get("/api/evals/rubrics/negotiation", headers=OWNER).status_code == 404
