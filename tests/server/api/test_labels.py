"""Owners' labels over HTTP on SQLite and PostgreSQL: labelling a trait of a seat, several
owners per item, what each label keeps, the errors that name the problem, a safety review
decision that labels the safety block, the labelling queue, and no label on any agent route."""

from __future__ import annotations

from typing import Any

from tests.conftest import owner_headers
from tests.server.api.conftest import Live

NOTE = "owner-note-7c1f: calm and fair, the anchor for 1 fits"


def _label(live: Live, run_id: str, owner: str = "ops", **body: Any) -> Any:
    data = {"seat": "buyer", "trait": "negotiation", "score": 1.0, "note": NOTE, **body}
    return live.client.post(f"/api/evals/{run_id}/labels", json=data, headers=owner_headers(owner))


def test_a_label_keeps_who_when_the_rubric_version_and_the_cards_era(live: Live) -> None:
    answer = _label(live, "list-1", score=0.5)
    card = live.client.get("/api/evals/list-1/scorecard", headers=live.owner).json()

    assert answer.status_code == 201, answer.text
    label = answer.json()
    trait = card["seats"]["buyer"]["traits"]["negotiation"]
    assert (label["score"], label["labelled_by"], label["source"]) == (0.5, "owner:ops", "api")
    assert label["rubric_version"] == trait["rubric_version"]
    assert label["rubric_hash"] == trait["rubric_hash"]
    assert label["era_id"] == card["measurement_era"]["era_id"]
    assert label["judge_model"] == "scripted-test-judge" and label["labelled_at"].endswith("Z")


def test_several_owners_label_the_same_item_and_all_labels_are_listed(live: Live) -> None:
    for owner, score in (("ana", 0.0), ("bo", 1.0)):
        assert _label(live, "list-2", owner, score=score).status_code == 201

    listed = live.client.get("/api/evals/list-2/labels", headers=live.owner).json()

    assert [(x["labelled_by"], x["score"]) for x in listed] == [
        ("owner:ana", 0.0),
        ("owner:bo", 1.0),
    ]


def test_a_label_off_the_anchors_or_of_an_unscored_trait_names_the_problem(live: Live) -> None:
    off = _label(live, "list-3", score=0.7)
    seat = _label(live, "list-3", seat="seller")
    trait = _label(live, "list-3", trait="charm")
    missing = _label(live, "no-such-run")

    assert off.status_code == 422 and "anchors: 0, 0.5 or 1" in off.text
    assert seat.status_code == 422 and "no scored seat 'seller'" in seat.text
    assert trait.status_code == 422 and "no scored trait 'charm'" in trait.text
    assert missing.status_code == 404


def test_a_label_score_is_a_json_number_never_a_boolean_or_a_string(live: Live) -> None:
    answers = [_label(live, "list-3", score=value) for value in (True, "1", "0.5")]

    assert [a.status_code for a in answers] == [422, 422, 422]
    assert all("score: Input should be a valid number" in a.text for a in answers)
    assert live.client.get("/api/evals/list-3/labels", headers=live.owner).json() == []


def test_a_label_of_minus_zero_is_stored_as_the_anchor_zero(live: Live) -> None:
    assert _label(live, "list-3", score=-0.0).status_code == 201

    listed = live.client.get("/api/evals/list-3/labels", headers=live.owner)

    assert '"score":0.0' in listed.text and "-0.0" not in listed.text


def test_an_agent_key_can_neither_read_nor_give_labels(live: Live) -> None:
    read = live.client.get("/api/evals/list-1/labels", headers=live.agent)
    give = live.client.post(
        "/api/evals/list-1/labels",
        json={"seat": "buyer", "trait": "negotiation", "score": 1.0},
        headers=live.agent,
    )

    assert read.status_code == 401 and give.status_code == 401
    assert NOTE not in read.text


def test_a_safety_review_with_a_label_labels_every_safety_trait(live: Live) -> None:
    body = {"decision": "cleared", "note": "looked at it", "label": 1.0}
    decided = live.client.post("/api/evals/list-3/safety-review", json=body, headers=live.owner)
    labels = live.client.get("/api/evals/list-3/labels", headers=live.owner).json()

    assert decided.status_code == 201, decided.text
    from_review = [x for x in labels if x["source"] == "safety_review"]
    assert sorted(x["trait"] for x in from_review) == [
        "harmful_compliance_refusal",
        "manipulation_resistance",
        "no_unauthorized_disclosure_conduct",
        "policy_adherence_under_pressure",
    ]
    assert {x["score"] for x in from_review} == {1.0}


def test_a_safety_review_without_a_label_adds_none(live: Live) -> None:
    before = len(live.client.get("/api/evals/list-2/labels", headers=live.owner).json())
    body = {"decision": "escalated", "note": "no label given"}
    assert (
        live.client.post(
            "/api/evals/list-2/safety-review", json=body, headers=live.owner
        ).status_code
        == 201
    )

    after = live.client.get("/api/evals/list-2/labels", headers=live.owner).json()

    assert len(after) == before


def test_the_queue_names_why_each_item_was_picked(live: Live) -> None:
    items = live.client.get("/api/evals/labels/queue?limit=200", headers=live.owner).json()

    # the scripted judge writes 0.7 on every pass: only the uniform sample picks an item
    assert items, "the uniform sample picked nothing"
    assert {tuple(i["reasons"]) for i in items} == {("uniform_sample",)}
    assert {(i["inclusion_probability"], i["weight"]) for i in items} == {(0.05, 20.0)}
