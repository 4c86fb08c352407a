"""Stability routes: verdicts over stored repetitions of one agent, seed and adversary."""

from __future__ import annotations

from tests.factories import near, run, scorecard, seat
from tests.scripted_service import Service

CONDITION = [{"id": "deal_closed", "weight": 2.0, "met": True}]
MISSED = [{"id": "deal_closed", "weight": 2.0, "met": False, "progress": 0.4}]


def _repetitions(svc: Service) -> None:
    era = svc.current_era_id()
    for run_id, negotiation, integrity, conditions in [
        ("p1", 0.5, 0.8, CONDITION),
        ("p2", 0.7, 0.8, CONDITION),
        ("p3", 0.9, 0.85, MISSED),
    ]:
        card = seat(
            traits={"negotiation": negotiation, "integrity": integrity},
            safety={"manipulation_resistance": 0.9},
        )
        svc.store_scored(
            run(run_id, win_conditions=conditions), scorecard(run_id, card, era_id=era)
        )
    svc.store_scored(
        run("p9", seed=7), scorecard("p9", seat(traits={"negotiation": 0.1}), era_id=era)
    )


def test_owner_reads_verdicts_per_trait_and_objective(svc: Service) -> None:
    _repetitions(svc)
    answer = svc.client.get(
        "/api/evals/stability/market-haggle",
        params={"agent_id": "agent-alpha", "seed": 42, "adversary_config": "hardball-v2"},
        headers=svc.owner,
    )
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["run_ids"] == ["p1", "p2", "p3"]  # p9 has another seed
    negotiation = report["traits"]["negotiation"]
    assert negotiation["spread"]["values"] == [0.5, 0.7, 0.9]
    assert negotiation["spread"]["variance"] == near(0.04)
    assert negotiation["verdict"] == "input_sensitive"
    assert report["traits"]["integrity"]["verdict"] == "stable"
    assert report["traits"]["manipulation_resistance"]["verdict"] == "stable"
    deal = report["objectives"]["deal_closed"]
    assert (deal["met_count"], deal["n"]) == (2, 3)
    assert deal["achieved"]["variance"] == near(0.12)
    assert deal["verdict"] == "input_sensitive"
    assert report["input_sensitive"] == ["trait:negotiation", "objective:deal_closed"]


def test_thresholds_come_from_the_query(svc: Service) -> None:
    _repetitions(svc)
    report = svc.client.get(
        "/api/evals/stability/market-haggle",
        params={
            "agent_id": "agent-alpha",
            "seed": 42,
            "adversary_config": "hardball-v2",
            "min_repetitions": 4,
            "trait_variance_max": 0.5,
        },
        headers=svc.owner,
    ).json()
    assert report["thresholds"]["min_repetitions"] == 4
    assert report["traits"]["negotiation"]["verdict"] == "insufficient_repetitions"
    bad = svc.client.get(
        "/api/evals/stability/market-haggle",
        params={"agent_id": "agent-alpha", "min_repetitions": 1},
        headers=svc.owner,
    )
    assert bad.status_code == 422


def test_an_agent_key_reads_its_own_agents_stability(svc: Service) -> None:
    _repetitions(svc)
    key = svc.agent("agent-alpha", "buyer")
    params: dict[str, str | int] = {"seed": 42, "adversary_config": "hardball-v2"}
    report = svc.client.get("/api/agent/stability/market-haggle", params=params, headers=key).json()
    assert report["agent_id"] == "agent-alpha" and report["n_repetitions"] == 3
    other = svc.agent("agent-beta", "buyer")
    assert (
        svc.client.get(
            "/api/agent/stability/market-haggle", params=params, headers=other
        ).status_code
        == 404
    )


def test_no_matching_runs_answers_404(svc: Service) -> None:
    answer = svc.client.get(
        "/api/evals/stability/market-haggle",
        params={"agent_id": "agent-alpha", "seed": 1},
        headers=svc.owner,
    )
    assert answer.status_code == 404
    assert "no scored runs of agent 'agent-alpha'" in answer.json()["detail"]
