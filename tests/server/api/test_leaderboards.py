"""Leaderboard route: ranked board from finalized submissions, facilitator class apart, eras flagged."""

from __future__ import annotations

from judge.core.domain.scorecard import Scorecard
from tests.factories import run, scorecard, seat
from tests.scripted_service import Service


def _submit(
    svc: Service, sid: str, agent_id: str, cards: list[Scorecard], **finalize: object
) -> None:
    for card in cards:
        svc.store_scored(run(card.run_id, seats=[{"seat": "buyer", "agent_id": agent_id}]), card)
    body = {
        "submission_id": sid,
        "scenario_id": "market-haggle",
        "agent_id": agent_id,
        "run_ids": [c.run_id for c in cards],
    }
    assert (
        svc.client.post("/api/evals/submissions", json=body, headers=svc.owner).status_code == 201
    )
    answer = svc.client.post(
        f"/api/evals/submissions/{sid}/finalize", json=finalize, headers=svc.owner
    )
    assert answer.status_code == 200, answer.text


def _populate(svc: Service) -> str:
    era = svc.current_era_id()
    _submit(
        svc,
        "s-alpha",
        "alpha",
        [
            scorecard("r1", seat(agent_id="alpha", composite=0.75, met=2, total=3), era_id=era),
            scorecard("r2", seat(agent_id="alpha", composite=0.5, met=1, total=3), era_id=era),
            scorecard(
                "r3",
                seat(agent_id="alpha", composite=0.125, met=0, total=3, gated=True),
                era_id=era,
            ),
        ],
    )
    _submit(
        svc,
        "s-beta",
        "beta",
        [scorecard("r4", seat(agent_id="beta", composite=0.7, met=1, total=1), era_id=era)],
    )
    _submit(
        svc,
        "s-gamma",
        "gamma",
        [
            scorecard(
                "r5",
                seat(agent_id="gamma", composite=0.95, met=1, total=1),
                era_id=era,
                custom=True,
            )
        ],
    )
    _submit(
        svc,
        "s-hidden",
        "eta",
        [scorecard("r8", seat(agent_id="eta", composite=0.99), era_id=era)],
        visibility="unlisted",
    )
    return era


def test_the_ranked_board_leaves_out_gated_and_custom_runs(svc: Service) -> None:
    era = _populate(svc)
    board = svc.client.get(f"/api/leaderboards/market-haggle?era={era}", headers=svc.owner).json()
    assert [(r["rank"], r["agent_id"]) for r in board["ranked"]] == [(1, "beta"), (2, "alpha")]
    alpha = board["ranked"][1]
    assert (alpha["composite_mean"], alpha["objective_met_rate"]) == (0.625, 0.5)
    assert (alpha["n_runs"], alpha["n_gated_excluded"], alpha["run_ids"]) == (2, 1, ["r1", "r2"])
    assert [(r["rank"], r["agent_id"]) for r in board["self_hosted_facilitator"]] == [
        (None, "gamma")
    ]
    assert (board["eras"], board["mixed_eras"]) == ([era], False)


def test_a_board_over_two_eras_is_flagged_not_merged(svc: Service) -> None:
    era = _populate(svc)
    _submit(
        svc,
        "s-delta",
        "delta",
        [scorecard("r6", seat(agent_id="delta", composite=0.5), era_id="era-old")],
    )
    board = svc.client.get("/api/leaderboards/market-haggle", headers=svc.owner).json()
    assert board["mixed_eras"] is True
    assert board["eras"] == sorted([era, "era-old"])
    assert {(r["era_id"], r["agent_id"], r["rank"]) for r in board["ranked"]} == {
        (era, "beta", 1),
        (era, "alpha", 2),
        ("era-old", "delta", 1),
    }


def test_agent_keys_may_read_boards_and_anonymous_callers_may_not(svc: Service) -> None:
    _populate(svc)
    key = svc.agent("beta", "buyer")
    assert (
        svc.client.get("/api/leaderboards/market-haggle", headers=key).json()["ranked"][0][
            "agent_id"
        ]
        == "beta"
    )
    assert svc.client.get("/api/leaderboards/market-haggle").status_code == 401


def test_an_open_submission_is_not_on_the_board(svc: Service) -> None:
    era = svc.current_era_id()
    svc.store_scored(run("o1"), scorecard("o1", seat(composite=0.9), era_id=era))
    body = {
        "submission_id": "s-open",
        "scenario_id": "market-haggle",
        "agent_id": "agent-alpha",
        "run_ids": ["o1"],
    }
    svc.client.post("/api/evals/submissions", json=body, headers=svc.owner)
    board = svc.client.get("/api/leaderboards/market-haggle", headers=svc.owner).json()
    assert (board["ranked"], board["self_hosted_facilitator"], board["eras"]) == ([], [], [])


def test_an_empty_board_says_why_and_what_fills_it(svc: Service) -> None:
    era = svc.current_era_id()
    svc.store_scored(run("lone"), scorecard("lone", seat(composite=0.9), era_id=era))

    board = svc.client.get("/api/leaderboards/market-haggle", headers=svc.owner).json()

    assert board["ranked"] == []
    assert board["note"] == (
        "no finalized submission for scenario 'market-haggle' yet: leaderboards are built from "
        "finalized submissions, never from scored runs alone; put the agent's scored runs in a "
        "submission (POST /api/evals/submissions) and finalize it "
        "(POST /api/evals/submissions/{id}/finalize)"
    )


def test_a_board_answers_figures_to_twelve_significant_digits(svc: Service) -> None:
    era = svc.current_era_id()
    noisy = [
        scorecard("n1", seat(agent_id="alpha", composite=0.1 + 0.2, met=1, total=3), era_id=era),
        scorecard("n2", seat(agent_id="alpha", composite=0.4, met=1, total=3), era_id=era),
    ]
    _submit(svc, "s-noisy", "alpha", noisy)

    answer = svc.client.get("/api/leaderboards/market-haggle", headers=svc.owner)

    assert answer.json()["ranked"][0]["composite_mean"] == 0.35  # stored mean 0.35000000000000003
    assert "0.35000000000000003" not in answer.text
