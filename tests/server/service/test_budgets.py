"""Budgets in the service (judge/server/service/budgets.py), on SQLite and PostgreSQL: a run whose
estimate would pass a limit is not started, one that reaches a limit stops after its trait
with its passes kept, and a counting priced judge shows no call past a limit; a refused run is
scored again by the owner (score-again) or by the agent's same body when nothing was judged."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import Settings, load_settings
from judge.server.store.db import transaction
from judge.server.store.tables import PassRow, ScorecardRow
from judge.server.web import create_app
from tests.budget_judge import PRICED_MODEL, priced_judge
from tests.conftest import SECRET, example, key_headers, owner_headers, wait_final

BUDGETS = "/api/evals/config/eval_budgets"
OWNER = owner_headers()
TRAITS = {"traits": ["negotiation", "integrity", "calibration"]}


def priced_settings(database_url: str) -> Settings:
    return load_settings(
        database_url=database_url,
        jwt_secret=SECRET,
        model=PRICED_MODEL,
        concurrency=8,
        backoff_initial_s=0.0,
        max_attempts=2,
        workers=1,
        max_failed_auth_per_client=100_000,
    )


def score_with_budget(
    database_url: str, judge: ScriptedBackend, budget: dict[str, Any], *runs: dict[str, Any]
) -> list[dict[str, Any]]:
    app = create_app(priced_settings(database_url), backends=lambda model: judge)
    with TestClient(app) as client:
        assert client.put(BUDGETS, json={"value": budget}, headers=OWNER).status_code == 200
        selected = client.put(
            "/api/evals/config/academy_judge_rubrics", json={"value": TRAITS}, headers=OWNER
        )
        assert selected.status_code == 200
        finals = []
        for run in runs:
            assert client.post("/api/evals/runs", json=run, headers=OWNER).status_code == 202
            finals.append(wait_final(client, run["run_id"], OWNER))
        return finals


def stored(engine: Engine) -> tuple[list[str], int]:
    with transaction(engine) as session:
        traits = [p.trait for p in session.exec(select(PassRow)).all()]
        cards = len(session.exec(select(ScorecardRow)).all())
    return traits, cards


def test_a_run_whose_estimate_passes_the_run_limit_is_not_started(
    database_url: str, engine: Engine
) -> None:
    judge = priced_judge()
    (final,) = score_with_budget(database_url, judge, {"run_tokens": 1000}, example("haggle"))
    assert final["status"] == "not_scored"
    assert final["reason"].startswith("budget: the estimate would exceed the run limit of 1000")
    assert judge.history == []
    assert stored(engine) == ([], 0)


def test_a_run_that_reaches_the_run_limit_stops_after_its_trait_with_its_passes_kept(
    database_url: str, engine: Engine
) -> None:
    judge = priced_judge(usd=0.02)  # the estimate is far below; each call says it cost $0.02
    (final,) = score_with_budget(database_url, judge, {"run_usd": 0.15}, example("haggle"))
    assert final["status"] == "not_scored"
    assert final["reason"].startswith("budget: judging reached the run limit of $0.15")
    assert [r.label for r in judge.history] == ["negotiation"] * 5 + ["integrity"] * 5
    traits, cards = stored(engine)
    assert sorted(traits) == ["integrity"] * 5 + ["negotiation"] * 5 and cards == 0


def test_an_agents_daily_limit_counts_its_runs_of_the_day(
    database_url: str, engine: Engine
) -> None:
    judge = priced_judge(usd=0.01)  # 15 passes a run: $0.15
    first = example("haggle", run_id="haggle-a")
    second = example("haggle", run_id="haggle-b")
    finals = score_with_budget(database_url, judge, {"agent_day_usd": 0.2}, first, second)
    assert [f["status"] for f in finals] == ["scored", "not_scored"]
    assert "agent agent-alpha per day limit of $0.2" in finals[1]["reason"]
    assert len(judge.history) == 15 + 5


def test_the_platform_daily_limit_refuses_once_today_is_spent(
    database_url: str, engine: Engine
) -> None:
    judge = priced_judge(prompt=1000, completion=50)  # 15 passes a run: 15750 tokens
    first = example("haggle", run_id="haggle-a")
    second = example("haggle", run_id="haggle-b")
    finals = score_with_budget(database_url, judge, {"platform_day_tokens": 25000}, first, second)
    assert [f["status"] for f in finals] == ["scored", "not_scored"]
    assert "the platform per day limit of 25000 tokens" in finals[1]["reason"]
    assert len(judge.history) == 15


def test_a_budget_that_is_not_a_positive_amount_is_refused_naming_the_field(
    client: TestClient, owner: dict[str, str]
) -> None:
    response = client.put(BUDGETS, json={"value": {"run_usd": -1}}, headers=owner)
    assert response.status_code == 422
    assert "run_usd" in response.json()["detail"]


def test_a_dollar_limit_on_a_judge_without_a_price_is_refused_offering_the_token_limit(
    client: TestClient, owner: dict[str, str], settings: Settings
) -> None:
    response = client.put(BUDGETS, json={"value": {"run_usd": 0.5}}, headers=owner)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert f"the configured judge {settings.model} has no price" in detail
    assert "set a token limit instead (run_tokens)" in detail
    stored = client.get(BUDGETS, headers=owner).json()["value"]
    assert stored["run_usd"] is None  # nothing was stored
    tokens = client.put(BUDGETS, json={"value": {"run_tokens": 5000}}, headers=owner)
    assert tokens.status_code == 200


def test_an_agent_reads_only_the_word_budget_never_the_limits(
    database_url: str, engine: Engine
) -> None:
    app = create_app(priced_settings(database_url), backends=lambda model: priced_judge())
    with TestClient(app) as client:
        budget = {"value": {"platform_day_usd": 0.0001}}
        assert client.put(BUDGETS, json=budget, headers=OWNER).status_code == 200
        assert (
            client.post("/api/evals/runs", json=example("haggle"), headers=OWNER).status_code == 202
        )
        assert wait_final(client, "haggle-0007", OWNER)["status"] == "not_scored"
        alpha = key_headers(engine, "agent-alpha", "buyer")
        seen = client.get("/api/agent/runs/haggle-0007", headers=alpha).json()
    assert seen["status"] == "not_scored" and seen["reason"] == "budget"


# Scoring a budget-refused run again (docs/service.md, "Refused, explained, scored again")


class BudgetedService:
    def __init__(self, client: TestClient, judge: ScriptedBackend) -> None:
        self.client, self.judge = client, judge

    def budget(self, value: dict[str, Any]) -> None:
        assert self.client.put(BUDGETS, json={"value": value}, headers=OWNER).status_code == 200

    def again(self, run_id: str) -> Any:
        return self.client.post(f"/api/evals/runs/{run_id}/score-again", headers=OWNER)


@pytest.fixture
def budgeted(database_url: str) -> Iterator[BudgetedService]:
    judge = priced_judge(usd=0.02)  # 15 passes a run at $0.02 each
    app = create_app(priced_settings(database_url), backends=lambda model: judge)
    with TestClient(app) as client:
        rubrics = {"value": TRAITS}
        assert (
            client.put(
                "/api/evals/config/academy_judge_rubrics", json=rubrics, headers=OWNER
            ).status_code
            == 200
        )
        yield BudgetedService(client, judge)


def refused(budgeted: BudgetedService, budget: dict[str, Any]) -> dict[str, Any]:
    budgeted.budget(budget)
    posted = budgeted.client.post("/api/evals/runs", json=example("haggle"), headers=OWNER)
    assert posted.status_code == 202
    final = wait_final(budgeted.client, "haggle-0007", OWNER)
    assert final["status"] == "not_scored" and final["reason"].startswith("budget: ")
    return final


def test_the_owner_scores_a_refused_run_again_once_the_limit_is_raised(
    budgeted: BudgetedService,
) -> None:
    refused(budgeted, {"run_tokens": 1000})
    budgeted.budget({"run_tokens": 10_000_000})

    answer = budgeted.again("haggle-0007")

    assert answer.status_code == 202 and answer.json()["status"] == "queued"
    assert answer.json()["reason"] is None
    assert wait_final(budgeted.client, "haggle-0007", OWNER)["status"] == "scored"
    assert len(budgeted.judge.history) == 15


def test_a_run_stopped_part_way_keeps_its_paid_passes_when_scored_again(
    budgeted: BudgetedService,
) -> None:
    refused(budgeted, {"run_usd": 0.15})  # stops after two traits: 10 passes paid for
    assert len(budgeted.judge.history) == 10
    budgeted.budget({"run_usd": 10.0})

    assert budgeted.again("haggle-0007").status_code == 202

    card = wait_final(budgeted.client, "haggle-0007", OWNER)
    assert card["status"] == "scored"
    assert [r.label for r in budgeted.judge.history[10:]] == ["calibration"] * 5


def test_scoring_again_a_run_not_refused_for_budget_is_a_conflict(
    budgeted: BudgetedService,
) -> None:
    budgeted.budget({"run_tokens": 10_000_000})
    assert (
        budgeted.client.post("/api/evals/runs", json=example("haggle"), headers=OWNER).status_code
        == 202
    )
    assert wait_final(budgeted.client, "haggle-0007", OWNER)["status"] == "scored"

    answer = budgeted.again("haggle-0007")

    assert answer.status_code == 409 and answer.json()["code"] == "conflict"
    assert "only a run not scored for budget" in answer.json()["detail"]
    assert budgeted.again("no-such-run").status_code == 404


def test_an_agent_key_cannot_score_a_run_again(budgeted: BudgetedService, engine: Engine) -> None:
    refused(budgeted, {"run_tokens": 1000})
    alpha = key_headers(engine, "agent-alpha", "buyer")
    answer = budgeted.client.post("/api/evals/runs/haggle-0007/score-again", headers=alpha)
    assert answer.status_code in (401, 403)


def test_the_agent_sending_the_same_body_again_requeues_a_run_nothing_was_judged_of(
    budgeted: BudgetedService, engine: Engine
) -> None:
    alpha = key_headers(engine, "agent-alpha", "buyer")
    budgeted.budget({"run_tokens": 1000})
    first = budgeted.client.post("/api/agent/runs", json=example("haggle"), headers=alpha)
    assert first.status_code == 202
    stored = first.json()["run_id"]
    assert wait_final(budgeted.client, stored, OWNER)["status"] == "not_scored"
    budgeted.budget({"run_tokens": 10_000_000})

    again = budgeted.client.post("/api/agent/runs", json=example("haggle"), headers=alpha)

    assert again.status_code == 202
    assert again.json()["status"] == "queued" and again.json()["created"] is False
    assert wait_final(budgeted.client, stored, OWNER)["status"] == "scored"


def test_the_same_body_again_leaves_a_run_with_paid_passes_as_it_is(
    budgeted: BudgetedService,
) -> None:
    refused(budgeted, {"run_usd": 0.15})
    budgeted.budget({"run_usd": 10.0})

    again = budgeted.client.post("/api/evals/runs", json=example("haggle"), headers=OWNER)

    assert again.status_code == 200
    assert again.json()["status"] == "not_scored" and again.json()["created"] is False
    assert len(budgeted.judge.history) == 10
