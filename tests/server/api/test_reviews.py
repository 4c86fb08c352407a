"""Safety review through the API: decisions stored with who and when, shown on the owner
scorecard only, the queue threshold as a validated platform_config key, and a rescore that
keeps the replaced scorecard and scores again under the era now in force."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.engine.judging.backends import ScriptedBackend
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from judge.server.store.review_tables import RunSummaryRow
from tests.conftest import example, wait_final

REVIEW = "/api/evals/haggle-0007/safety-review"


def test_a_decision_is_stored_with_who_and_when_and_shown_on_the_owner_scorecard(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))

    posted = client.post(
        REVIEW, json={"decision": "escalated", "note": "disclosed a price floor"}, headers=owner
    )
    status = client.get(REVIEW, headers=owner).json()
    card = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()

    assert posted.status_code == 201
    assert status["state"] == "escalated" and status["attempt"] == 1
    [entry] = status["reviews"]
    assert (entry["decision"], entry["note"], entry["reviewed_by"], entry["attempt"]) == (
        "escalated",
        "disclosed a price floor",
        "owner:ops",
        1,
    )
    assert entry["reviewed_at"].endswith("Z")
    assert card["safety_review"]["state"] == "escalated"
    assert card["safety_review"]["reviews"] == status["reviews"]
    assert card["seats"]["buyer"]["safety_block"]["manipulation_resistance"]["mean"] == 0.7


def test_every_decision_is_kept_in_order_and_the_latest_is_the_state(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))
    for decision in ("escalated", "cleared"):
        assert client.post(REVIEW, json={"decision": decision}, headers=owner).status_code == 201

    status = client.get(REVIEW, headers=owner).json()

    assert status["state"] == "cleared"
    assert [r["decision"] for r in status["reviews"]] == ["escalated", "cleared"]


def test_agents_never_read_or_record_a_safety_review(
    client: TestClient, owner: dict[str, str], scored: Any, agent_key: Any
) -> None:
    scored(example("haggle"))
    alpha = agent_key("agent-alpha", "buyer")

    assert client.get(REVIEW, headers=alpha).status_code == 401
    assert client.post(REVIEW, json={"decision": "cleared"}, headers=alpha).status_code == 401
    assert client.get(REVIEW).status_code == 401
    agent_card = client.get("/api/agent/runs/haggle-0007/scorecard", headers=alpha).json()
    assert "safety_review" not in agent_card and "safety_block" not in agent_card["seat"]
    assert client.get(REVIEW, headers=owner).json()["reviews"] == []


def test_a_bad_decision_or_unknown_run_is_refused_and_nothing_is_stored(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))

    bad = client.post(REVIEW, json={"decision": "ignored"}, headers=owner)
    long_note = client.post(REVIEW, json={"decision": "cleared", "note": "x" * 4001}, headers=owner)
    missing = client.post(
        "/api/evals/no-such-run/safety-review", json={"decision": "cleared"}, headers=owner
    )

    assert bad.status_code == 422 and "decision" in bad.json()["detail"]
    assert long_note.status_code == 422 and "note" in long_note.json()["detail"]
    assert missing.status_code == 404
    assert client.get(REVIEW, headers=owner).json()["reviews"] == []


def test_the_queue_threshold_is_a_validated_audited_config_key(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))
    url = "/api/evals/config/console_safety_review"
    assert client.get(REVIEW, headers=owner).json()["flagged"] is False

    refused = client.put(url, json={"value": {"safety_below": 1.5}}, headers=owner)
    changed = client.put(
        url, json={"value": {"safety_below": 0.8, "spread_above": 0.3}}, headers=owner
    )
    status = client.get(REVIEW, headers=owner).json()

    assert refused.status_code == 422 and "safety_below" in refused.json()["detail"]
    assert changed.status_code == 200 and changed.json()["era_changed"] is False
    assert status["flagged"] is True and status["safety_min"] == 0.7
    assert status["reasons"] == ["a safety trait mean 0.70 is below 0.80"]
    assert [a["new"] for a in client.get(f"{url}/audit", headers=owner).json()] == [
        {"safety_below": 0.8, "spread_above": 0.3, "trusted_judges": []}
    ]


def test_a_rescore_keeps_the_old_scorecard_and_scores_again_under_the_current_era(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))
    first = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()
    denoise = {"temperature": 0.0, "min_n_runs": 5, "n_runs": 6}
    assert (
        client.put(
            "/api/evals/config/academy_eval_judge_denoise", json={"value": denoise}, headers=owner
        ).json()["era_changed"]
        is True
    )

    asked = client.post(
        REVIEW, json={"decision": "rescore_requested", "note": "passes disagree"}, headers=owner
    )
    assert asked.status_code == 201 and asked.json()["attempt"] == 2
    assert wait_final(client, "haggle-0007", owner)["status"] == "scored"
    second = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()
    kept = client.get("/api/evals/haggle-0007/scorecards/1", headers=owner)
    status = client.get(REVIEW, headers=owner).json()

    assert second["measurement_era"]["era_id"] != first["measurement_era"]["era_id"]
    assert len(second["seats"]["buyer"]["traits"]["negotiation"]["passes"]) == 6
    assert kept.status_code == 200
    old = kept.json()
    assert old["measurement_era"] == first["measurement_era"]
    assert len(old["seats"]["buyer"]["traits"]["negotiation"]["passes"]) == 5
    assert [(a["attempt"], a["measurement_era"]) for a in status["earlier_scorecards"]] == [
        (1, first["measurement_era"]["era_id"])
    ]
    # the new scorecard reopens review; the request stays in the trail
    assert (status["state"], status["attempt"]) == ("none", 2)
    assert [r["decision"] for r in status["reviews"]] == ["rescore_requested"]
    assert client.get("/api/evals/haggle-0007/scorecards/2", headers=owner).status_code == 404


def test_a_rescore_is_refused_while_the_run_is_being_scored(
    client: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    scored(example("haggle"))
    with transaction(engine) as session:
        run_repo.set_run_status(session, run_id="haggle-0007", status="scoring")

    refused = client.post(REVIEW, json={"decision": "rescore_requested"}, headers=owner)

    assert refused.status_code == 409 and "scoring" in refused.json()["detail"]
    assert client.get(REVIEW, headers=owner).json()["reviews"] == []
    assert client.get("/api/evals/haggle-0007/scorecard", headers=owner).status_code == 200


def test_concurrent_rescore_requests_queue_the_run_once_and_the_others_get_409(
    client: TestClient, owner: dict[str, str], scored: Any, judge: ScriptedBackend
) -> None:
    scored(example("haggle"))
    # the rescore's judge calls wait until every request is answered: a rescore that had
    # already finished would rightly accept a later request, and that is not what this tests
    answered, verdict = threading.Event(), judge.default
    judge.default = lambda request: verdict if answered.wait(30) else "timed out"
    asks = 4
    gate = threading.Barrier(asks)

    def ask(_: int) -> int:
        gate.wait()
        return client.post(
            REVIEW, json={"decision": "rescore_requested"}, headers=owner
        ).status_code

    with ThreadPoolExecutor(asks) as pool:
        codes = sorted(pool.map(ask, range(asks)))
    answered.set()
    assert wait_final(client, "haggle-0007", owner)["status"] == "scored"
    status = client.get(REVIEW, headers=owner).json()

    assert codes == [201] + [409] * (asks - 1)
    assert (status["attempt"], len(status["reviews"]), len(status["earlier_scorecards"])) == (
        2,
        1,
        1,
    )


def test_a_rescore_starts_its_crash_count_afresh(
    client: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    scored(example("haggle"))
    with transaction(
        engine
    ) as session:  # the first attempt survived four crashes and two clean stops
        row = run_repo.get_run(session, run_id="haggle-0007")
        assert row is not None
        row.scoring_starts, row.clean_stops = 7, 2
        session.add(row)

    assert (
        client.post(REVIEW, json={"decision": "rescore_requested"}, headers=owner).status_code
        == 201
    )
    assert wait_final(client, "haggle-0007", owner)["status"] == "scored"
    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id="haggle-0007")
        assert row is not None and (row.scoring_starts, row.clean_stops) == (1, 0)


@pytest.mark.parametrize("decision", ["cleared", "escalated"])
@pytest.mark.parametrize("status", ["queued", "scoring", "not_scored"])
def test_a_decision_on_a_run_without_a_scored_safety_block_is_refused(
    client: TestClient,
    owner: dict[str, str],
    scored: Any,
    engine: Engine,
    decision: str,
    status: str,
) -> None:
    scored(example("haggle"))
    with transaction(engine) as session:
        run_repo.set_run_status(session, run_id="haggle-0007", status=status)

    refused = client.post(REVIEW, json={"decision": decision}, headers=owner)

    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        f"run 'haggle-0007' is {status}: it has no scored safety block to mark {decision}; "
        "record the decision once the run is scored"
    )
    assert client.get(REVIEW, headers=owner).json()["reviews"] == []


def test_a_decision_on_a_scored_run_without_safety_traits_is_refused(
    client: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    scored(example("haggle"))
    with transaction(engine) as session:
        summary = session.get(RunSummaryRow, "haggle-0007")
        assert summary is not None
        summary.safety_min = None
        session.add(summary)

    refused = client.post(REVIEW, json={"decision": "cleared"}, headers=owner)

    assert refused.status_code == 409 and "no scored safety trait" in refused.json()["detail"]


def test_a_new_scorecard_reopens_a_cleared_run_and_keeps_the_old_decision(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))
    url = "/api/evals/config/console_safety_review"
    client.put(url, json={"value": {"safety_below": 0.8, "spread_above": 0.3}}, headers=owner)
    assert client.post(REVIEW, json={"decision": "cleared"}, headers=owner).status_code == 201
    assert client.get(REVIEW, headers=owner).json()["state"] == "cleared"

    asked = client.post(REVIEW, json={"decision": "rescore_requested"}, headers=owner)
    assert asked.status_code == 201
    assert wait_final(client, "haggle-0007", owner)["status"] == "scored"
    status = client.get(REVIEW, headers=owner).json()

    assert (status["state"], status["flagged"], status["attempt"]) == ("none", True, 2)
    assert [(r["decision"], r["attempt"]) for r in status["reviews"]] == [
        ("cleared", 1),
        ("rescore_requested", 1),
    ]
    assert client.post(REVIEW, json={"decision": "cleared"}, headers=owner).status_code == 201
    assert client.get(REVIEW, headers=owner).json()["reviews"][-1]["attempt"] == 2
