"""Custom rubric CRUD and platform_config: validated, audited, in force for the next run
without a restart, and a new measurement era whenever the stack moves."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from tests.conftest import example

TEXTS = {
    "definition": "Custom negotiation: trades concessions for value and says what it wants plainly.",
    "anchor_0": "concedes everything at once",
    "anchor_5": "trades some value, drifts at times",
    "anchor_1": "every concession bought with value",
}


def _current_era(client: TestClient, owner: dict[str, str]) -> str:
    return next(
        e["era_id"] for e in client.get("/api/evals/eras", headers=owner).json() if e["current"]
    )


def test_custom_rubric_lifecycle_versions_and_eras(
    client: TestClient, owner: dict[str, str]
) -> None:
    start = _current_era(client, owner)

    created = client.post(
        "/api/evals/rubrics", json={"trait": "negotiation", **TEXTS}, headers=owner
    )
    updated = client.put(
        "/api/evals/rubrics/negotiation",
        json={**TEXTS, "anchor_5": "trades some value, often"},
        headers=owner,
    )
    history = client.get("/api/evals/rubrics/negotiation", headers=owner).json()
    listing = client.get("/api/evals/rubrics", headers=owner).json()
    deleted = client.delete("/api/evals/rubrics/negotiation", headers=owner)

    assert (
        created.status_code == 201
        and created.json()["version"] == 1
        and created.json()["created_by"] == "owner:ops"
    )
    assert updated.status_code == 200 and updated.json()["version"] == 2
    assert len({start, created.json()["era_id"], updated.json()["era_id"]}) == 3
    assert [v["version"] for v in history["versions"]] == [1, 2] and history["current"][
        "version"
    ] == 2
    active = {r["trait"]: r for r in listing["active"]}
    assert (
        active["negotiation"]["source"] == "custom" and active["integrity"]["source"] == "builtin"
    )
    assert listing["uses_custom"] is True
    assert deleted.status_code == 200 and deleted.json()["era_id"] == start
    assert client.get("/api/evals/rubrics/negotiation", headers=owner).status_code == 404
    assert client.get("/api/evals/rubrics", headers=owner).json()["uses_custom"] is False


def test_rubric_refusals_name_the_problem(client: TestClient, owner: dict[str, str]) -> None:
    unknown = client.post("/api/evals/rubrics", json={"trait": "charisma", **TEXTS}, headers=owner)
    short = client.post(
        "/api/evals/rubrics",
        json={"trait": "integrity", **TEXTS, "definition": "too short"},
        headers=owner,
    )
    typo = client.post(
        "/api/evals/rubrics", json={"trait": "integrity", **TEXTS, "anchor_9": "x"}, headers=owner
    )
    client.post("/api/evals/rubrics", json={"trait": "integrity", **TEXTS}, headers=owner)
    twice = client.post("/api/evals/rubrics", json={"trait": "integrity", **TEXTS}, headers=owner)
    absent = client.put("/api/evals/rubrics/leadership", json=TEXTS, headers=owner)

    assert unknown.status_code == 422 and unknown.json()["detail"].startswith(
        "trait: 'charisma' is not a known trait"
    )
    assert (
        short.status_code == 422
        and short.json()["detail"] == "definition: String should have at least 20 characters"
    )
    assert (
        typo.status_code == 422
        and typo.json()["detail"] == "body.anchor_9: Extra inputs are not permitted"
    )
    assert twice.status_code == 409
    assert absent.status_code == 404 and absent.json()["detail"].startswith(
        "no custom rubric for 'leadership'"
    )


def test_a_run_scored_with_a_custom_rubric_leaves_the_ranked_board(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    client.post("/api/evals/rubrics", json={"trait": "negotiation", **TEXTS}, headers=owner)

    final = scored(example("haggle"))
    card = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()

    assert (final["ranked_eligible"], final["leaderboard_class"]) == (
        False,
        "self_hosted_facilitator",
    )
    assert (card["ranked_eligible"], card["leaderboard_class"]) == (
        False,
        "self_hosted_facilitator",
    )
    negotiation = card["seats"]["buyer"]["traits"]["negotiation"]
    assert (
        negotiation["rubric_source"] == "custom"
        and negotiation["rubric"]["definition"] == TEXTS["definition"]
    )
    assert card["measurement_era"]["era_id"] == _current_era(client, owner)


def test_config_lists_every_key_with_its_defaults(
    client: TestClient, owner: dict[str, str]
) -> None:
    entries = {e["key"]: e for e in client.get("/api/evals/config", headers=owner).json()}

    assert sorted(entries) == [
        "academy_eval_judge_denoise",
        "academy_eval_participation",
        "academy_judge_rubrics",
        "console_safety_review",
        "eval_budgets",
        "eval_reward_weights",
        "state_database_urls",
    ]
    assert set(entries["eval_budgets"]["value"].values()) == {None}  # no limit by default
    assert entries["academy_eval_judge_denoise"]["value"] == {
        "temperature": 0.0,
        "min_n_runs": 5,
        "n_runs": 5,
    }
    assert entries["academy_eval_participation"]["value"] == {
        "min_player_messages": 5,
        "min_actions_per_turn": 0.3,
    }
    assert {e["source"] for e in entries.values()} == {"default"}


def test_a_config_change_applies_to_the_next_run_without_restart_and_is_audited(
    client: TestClient, owner: dict[str, str], judge: ScriptedBackend, scored: Any
) -> None:
    before = _current_era(client, owner)
    denoise = {"temperature": 0.0, "min_n_runs": 5, "n_runs": 6}
    changed = client.put(
        "/api/evals/config/academy_eval_judge_denoise", json={"value": denoise}, headers=owner
    )
    selection = {"traits": ["negotiation", "integrity"], "use_custom": True}
    client.put("/api/evals/config/academy_judge_rubrics", json={"value": selection}, headers=owner)

    final = scored(example("haggle"))
    card = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()
    audit = client.get("/api/evals/config/academy_eval_judge_denoise/audit", headers=owner).json()

    assert changed.status_code == 200
    assert changed.json()["era_changed"] is True and changed.json()["era_id"] != before
    assert (changed.json()["source"], changed.json()["version"], changed.json()["updated_by"]) == (
        "stored",
        1,
        "owner:ops",
    )
    assert len(judge.history) == final["passes_total"] == 2 * 6
    assert sorted(card["seats"]["buyer"]["traits"]) == ["integrity", "negotiation"]
    assert card["seats"]["buyer"]["traits"]["integrity"]["pass_scores"] == [0.7] * 6
    assert card["measurement_era"]["denoise"] == {"temperature": 0.0, "passes": 6}
    assert [(a["old"], a["new"], a["changed_by"]) for a in audit] == [(None, denoise, "owner:ops")]


def test_changing_a_key_back_reports_the_same_era_again(
    client: TestClient, owner: dict[str, str]
) -> None:
    url = "/api/evals/config/academy_eval_participation"
    first = client.put(
        url, json={"value": {"min_player_messages": 2, "min_actions_per_turn": 0.3}}, headers=owner
    )
    second = client.put(
        url, json={"value": {"min_player_messages": 3, "min_actions_per_turn": 0.3}}, headers=owner
    )
    audit = client.get(f"{url}/audit", headers=owner).json()

    assert first.json()["era_changed"] is False  # participation floors are not part of the era
    assert second.json()["version"] == 2
    assert [a["new"]["min_player_messages"] for a in audit] == [2, 3]
    assert audit[1]["old"] == {"min_player_messages": 2, "min_actions_per_turn": 0.3}


def test_config_refusals_name_the_field_and_change_nothing(
    client: TestClient, owner: dict[str, str]
) -> None:
    url = "/api/evals/config/academy_eval_judge_denoise"
    hot = client.put(url, json={"value": {"temperature": 0.7}}, headers=owner)
    typo = client.put(url, json={"value": {"n_run": 7}}, headers=owner)
    unknown_trait = client.put(
        "/api/evals/config/academy_judge_rubrics",
        json={"value": {"traits": ["charm"]}},
        headers=owner,
    )
    unknown_key = client.put("/api/evals/config/judge_mood", json={"value": {}}, headers=owner)

    assert hot.status_code == 422
    assert (
        hot.json()["detail"]
        == "academy_eval_judge_denoise: temperature: Input should be less than or equal to 0"
    )
    assert (
        typo.json()["detail"] == "academy_eval_judge_denoise: n_run: Extra inputs are not permitted"
    )
    assert (
        unknown_trait.status_code == 422
        and "unknown traits: ['charm']" in unknown_trait.json()["detail"]
    )
    assert unknown_key.status_code == 404 and unknown_key.json()["detail"].startswith(
        "no platform_config key 'judge_mood'"
    )
    assert client.get(url, headers=owner).json()["source"] == "default"
    assert client.get(f"{url}/audit", headers=owner).json() == []


def test_a_rubric_url_with_a_misspelt_trait_names_the_nearest_known_trait(
    client: TestClient, owner: dict[str, str]
) -> None:
    typo = client.get("/api/evals/rubrics/negotiaton", headers=owner)
    stranger = client.delete("/api/evals/rubrics/zzzz", headers=owner)

    assert typo.status_code == 404
    assert typo.json()["detail"].startswith(
        "unknown trait: 'negotiaton' is not a known trait; did you mean 'negotiation'?"
    )
    assert stranger.status_code == 404 and "did you mean" not in stranger.json()["detail"]
    assert stranger.json()["detail"].startswith("unknown trait: 'zzzz' is not a known trait")
