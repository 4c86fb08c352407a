"""The judge's own screen in the service (docs/integrity.md, "The judge's own screen"), on
SQLite and PostgreSQL: with JUDGE_SCREEN on, a seat the judge calls directed is held for
review like any flagged seat, one screen call per scored seat is made, and its tokens count
in today's spend; the setting is refused for the embedded judge."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.errors import ConfigError
from judge.core.scoring.run_summary import TAMPER_REASON
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.settings import load_settings
from judge.server.service.budgets import day_start
from judge.server.store import spend
from judge.server.store.db import transaction
from judge.server.web import create_app
from tests.budget_judge import PRICED_MODEL
from tests.conftest import SECRET, VERDICT, example, owner_headers, wait_final
from tests.server.console.test_pages import owner_token, sign_in

OWNER = owner_headers()


class Judge(ScriptedBackend):
    """Calls every seat directed (turn 2); each call costs 400 + 20 tokens."""

    def __init__(self) -> None:
        super().__init__(self.answer, model=PRICED_MODEL)

    @staticmethod
    def answer(request: JudgeRequest) -> JudgeReply:
        screen = request.label == "judge_screen"
        text = json.dumps({"directed": True, "turns": [2]}) if screen else VERDICT
        return JudgeReply(text=text, prompt_tokens=400, completion_tokens=20)


def test_a_seat_the_judge_calls_directed_is_held_and_its_screen_counted(
    database_url: str, engine: Engine
) -> None:
    judge = Judge()
    settings = load_settings(
        database_url=database_url,
        jwt_secret=SECRET,
        model=PRICED_MODEL,
        backoff_initial_s=0.0,
        max_attempts=2,
        workers=1,
        judge_screen=True,
    )
    with TestClient(create_app(settings, backends=lambda _m: judge)) as client:
        traits = {"value": {"traits": ["negotiation"]}}
        assert (
            client.put(
                "/api/evals/config/academy_judge_rubrics", json=traits, headers=OWNER
            ).status_code
            == 200
        )
        body = example("haggle", run_id="screened-1")
        assert client.post("/api/evals/runs", json=body, headers=OWNER).status_code == 202
        assert wait_final(client, "screened-1", OWNER)["status"] == "scored"
        review = client.get("/api/evals/screened-1/safety-review", headers=OWNER).json()
        card = client.get("/api/evals/screened-1/scorecard", headers=OWNER).json()
        assert sign_in(client, owner_token()).status_code == 303
        page = client.get("/console/runs/screened-1").text

    screens = [r for r in judge.history if r.label == "judge_screen"]
    assert len(screens) == 1  # haggle scores one seat
    assert (review["flagged"], review["reasons"], review["held_for_review"]) == (
        True,
        [TAMPER_REASON],
        True,
    )
    tamper = card["seats"]["buyer"]["tamper"]
    assert tamper["judge_screen"]["verdict"] == "directed"
    assert [f["kind"] for f in tamper["findings"]] == ["judge_screen"]
    assert card["cost"]["screen_calls"] == 1
    assert "(1 of them the judge's own screen)" in page  # the run page's cost line
    with transaction(engine) as session:
        agent = spend.agent_spent(session, agent_id="agent-alpha", since=day_start())
    passes = len(judge.history) - 1
    assert agent.tokens == (passes + 1) * 420  # the passes and the screen call


def test_the_setting_is_refused_for_the_embedded_judge() -> None:
    with pytest.raises(ConfigError, match="JUDGE_SCREEN: .*too small to answer reliably"):
        load_settings(jwt_secret=SECRET, judge_screen=True)
