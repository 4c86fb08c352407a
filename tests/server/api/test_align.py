"""`judge align` over the API on SQLite and PostgreSQL (docs/alignment.md): owners label twelve
runs, a proposal proves each candidate on the held-out runs, only a proven candidate is adopted
and only on the owner's command, adoption opens a new era with its evidence kept, and no agent
key reaches any of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.settings import Settings
from judge.engine.telemetry.prometheus import REGISTRY
from judge.server.service.budgets import day_start
from judge.server.store import spend
from judge.server.store.db import transaction
from judge.server.store.tables import JudgeCallRow
from judge.server.web import create_app
from tests.align_judges import (
    TRAIT,
    WORDS,
    exemplar_learner,
    flat_judge,
    label_runs,
    run_body,
    squeezed_judge,
)
from tests.conftest import key_headers, owner_headers, wait_final

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


@pytest.fixture
def squeezed(settings: Settings) -> Iterator[TestClient]:
    """Twelve runs labelled by the owners and scored by a judge squeezed into 0.2..0.6."""
    judge = ScriptedBackend(squeezed_judge, model="scripted-test-judge")
    with TestClient(create_app(settings, backends=lambda model: judge)) as client:
        label_runs(client, OWNER, RUNS)
        yield client


def owner_trait(client: TestClient, run_id: str) -> dict[str, Any]:
    card = client.get(f"/api/evals/{run_id}/scorecard", headers=OWNER).json()
    return {"era": card["measurement_era"]["era_id"], **card["seats"]["buyer"]["traits"][TRAIT]}


def test_an_adopted_calibration_map_scores_later_runs_in_a_new_era(
    squeezed: TestClient, engine: Engine
) -> None:
    client = squeezed
    made = client.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER).json()
    fitted = candidates(made)["calibration_map"]
    assert fitted["proof"]["adoptable"] is True and fitted["proof"]["mae_gain"]["low"] > 0
    points = [(p["judge"], p["owners"]) for p in fitted["calibration_map"]["points"]]
    assert points == [(0.2, 0.0), (0.4, 0.5), (0.6, 1.0)]
    earlier = owner_trait(client, "r00")  # a careful buyer, scored before adoption
    assert (earlier["mean"], earlier["raw_mean"], earlier["calibration_map_hash"]) == (
        0.6,
        None,
        None,
    )

    adopted = client.post(
        f"/api/evals/alignments/{made['id']}/adopt", json={"kind": "calibration_map"}, headers=OWNER
    )

    assert adopted.status_code == 200, adopted.text
    done = adopted.json()
    assert done["adopted_kind"] == "calibration_map" and done["rubric_version"] == 1
    assert done["era_after"] != done["era_before"] == earlier["era"]
    rubric = client.get(f"/api/evals/rubrics/{TRAIT}", headers=OWNER).json()["current"]
    assert rubric["calibration_map"] == fitted["calibration_map"]
    assert "Examples" not in rubric["definition"]  # the judge reads the texts it read before
    for index, word in ((12, "careful"), (13, "mixed"), (14, "careless")):
        run_id = f"r{index:02d}"
        assert client.post("/api/evals/runs", json=run_body(run_id, word), headers=OWNER)
        assert wait_final(client, run_id, OWNER)["status"] == "scored"
    later = {
        w: owner_trait(client, f"r{i:02d}")
        for i, w in ((12, "careful"), (13, "mixed"), (14, "careless"))
    }
    assert {w: (t["raw_mean"], t["mean"]) for w, t in later.items()} == {
        "careful": (0.6, 1.0),
        "mixed": (0.4, 0.5),
        "careless": (0.2, 0.0),
    }
    assert {t["era"] for t in later.values()} == {done["era_after"]}
    assert later["careful"]["calibration_map_hash"] is not None
    assert later["careful"]["rubric_hash"] != earlier["rubric_hash"]
    assert owner_trait(client, "r00") == earlier  # scored before: never rescored
    for index, word in ((12, "careful"), (13, "mixed"), (14, "careless")):
        label = {"seat": "buyer", "trait": TRAIT, "score": WORDS[word]}
        assert client.post(f"/api/evals/r{index:02d}/labels", json=label, headers=OWNER)
    live = client.get("/api/evals/labels/agreement", headers=OWNER).json()
    mae = {a["era_id"]: a["agreement"]["judge"]["mae"] for a in live if a["trait"] == TRAIT}
    # the agreement page reads the trait score: the era after the map agrees exactly
    assert mae[done["era_after"]] == 0.0 and round(mae[done["era_before"]], 3) == 0.233
    agent = key_headers(engine, "agent-alpha", "buyer")  # no second app: it would judge too
    shown = client.get("/api/agent/runs/r12/scorecard", headers=agent).json()
    trait = shown["seat"]["traits"][TRAIT]
    assert trait["mean"] == 1.0 and trait["raw_mean"] is None
    assert trait["calibration_map_hash"] is None
    assert shown["measurement_era"] == done["era_after"]


BUDGETS = "/api/evals/config/eval_budgets"


def with_tokens(script: Any) -> Any:
    """``script``'s replies with the tokens a remote judge reports (100 in, 10 out)."""

    def reply(request: JudgeRequest) -> JudgeReply:
        return JudgeReply(text=script(request), prompt_tokens=100, completion_tokens=10)

    return reply


def test_a_proposal_past_the_platforms_daily_limit_is_refused_before_any_judge_call(
    labelled: TestClient, judge: ScriptedBackend
) -> None:
    limit = {"value": {"platform_day_tokens": 2000}}
    assert labelled.put(BUDGETS, json=limit, headers=OWNER).status_code == 200
    asked = len(judge.history)

    refused = labelled.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER)

    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert refused.json()["detail"].startswith(
        f"judge align for {TRAIT} refused before any judge call: the estimate would exceed "
        "the platform per day limit of 2000 tokens ("
    )
    assert len(judge.history) == asked
    assert labelled.get("/api/evals/alignments", headers=OWNER).json() == []


def test_a_proposals_judge_calls_count_in_todays_spend_and_the_metrics(
    settings: Settings, engine: Engine
) -> None:
    model = "scripted-align-spend"
    judge = ScriptedBackend(with_tokens(exemplar_learner), model=model)
    with TestClient(create_app(settings, backends=lambda _: judge)) as client:
        label_runs(client, OWNER, RUNS)
        asked, counted = (
            len(judge.history),
            REGISTRY.get_sample_value("judge_calls_total", {"model": model}),
        )
        with transaction(engine) as session:
            before = spend.platform_spent(session, since=day_start())
        # a limit the estimate fits under: the proposal goes ahead
        limit = {"value": {"platform_day_tokens": before.tokens + 10**6}}
        assert client.put(BUDGETS, json=limit, headers=OWNER).status_code == 200

        made = client.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER)

        assert made.status_code == 201, made.text
    calls = len(judge.history) - asked
    per_seat = 5  # the trait's passes on the one scored seat
    # the baseline on 12 runs, exemplars and anchors each on the 6 held out, one clarification
    assert calls == 12 * per_seat + 6 * per_seat + 1 + 6 * per_seat
    assert (
        REGISTRY.get_sample_value("judge_calls_total", {"model": model}) == (counted or 0) + calls
    )
    with transaction(engine) as session:
        kept = session.exec(select(JudgeCallRow).where(JudgeCallRow.purpose == "align")).all()
        after = spend.platform_spent(session, since=day_start())
    assert len(kept) == calls and {r.agent_id for r in kept} == {""}
    assert after.tokens - before.tokens == 110 * calls
    assert {r.run_id for r in kept} == {f"r{i:02d}" for i in range(RUNS)}
