"""Finalization compares a submission's era with the era scoring really makes now
(:func:`judge.server.service.platform.scoring_era`; docs/scoring.md, "Eras"), on SQLite and
PostgreSQL: runs a judge scored with shared passes and a json_object reply format are not
flagged as measured in another era, though the configured stack alone knows neither part; a
submission whose configured stack truly moved still is."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.settings import Settings
from judge.server.service import platform
from judge.server.store.db import transaction
from judge.server.web import create_app
from tests.conftest import example, wait_final
from tests.fake_judge import VERDICT


class SharingJudge(ScriptedBackend):
    """A scripted judge that answers OpenAI's ``n`` with n choices (as vLLM does), each held
    to the verdict schema as llama-cpp-python's ``json_object`` holds it."""

    def __init__(self) -> None:
        super().__init__(VERDICT, model="scripted-test-judge")
        self.choices_asked: list[int] = []

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        reply = await super().complete(request)
        return reply.model_copy(update={"structured_output": True, "reply_format": "json_object"})

    async def complete_choices(self, request: JudgeRequest, n: int) -> list[JudgeReply]:
        self.choices_asked.append(n)
        return [await self.complete(request) for _ in range(n)]


@pytest.fixture
def sharing() -> SharingJudge:
    return SharingJudge()


@pytest.fixture
def app_client(settings: Settings, sharing: SharingJudge) -> Iterator[TestClient]:
    with TestClient(create_app(settings, backends=lambda _model: sharing)) as client:
        yield client


def _score(client: TestClient, owner: dict[str, str], run_id: str) -> None:
    response = client.post("/api/evals/runs", json=example("haggle", run_id=run_id), headers=owner)
    assert response.status_code == 202, response.text
    assert wait_final(client, run_id, owner)["status"] == "scored"


def _finalize(client: TestClient, owner: dict[str, str], sid: str, run_id: str) -> Any:
    opened = {
        "submission_id": sid,
        "scenario_id": "market-haggle",
        "agent_id": "agent-alpha",
        "run_ids": [run_id],
    }
    assert client.post("/api/evals/submissions", json=opened, headers=owner).status_code == 201
    answer = client.post(f"/api/evals/submissions/{sid}/finalize", json={}, headers=owner)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_shared_passes_finalize_in_the_current_era_and_a_moved_stack_is_flagged(
    app_client: TestClient, settings: Settings, sharing: SharingJudge, owner: dict[str, str]
) -> None:
    client = app_client
    _score(client, owner, "share-1")
    _score(client, owner, "share-2")
    assert sharing.choices_asked and set(sharing.choices_asked) == {5}
    card = client.get("/api/evals/share-1/scorecard", headers=owner).json()
    era = card["measurement_era"]
    assert era["shared_passes"] is True
    assert era["reply_format"] == {"scripted-test-judge": ["json_object"]}
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with transaction(engine) as session:
        configured = platform.current_stack(session, settings=settings)
        scoring = platform.scoring_era(session, settings=settings)
    # the configured stack knows neither served part: compared with it, every run that shared
    # its passes read as measured in another era
    assert configured.era_id != era["era_id"] and not configured.shared_passes
    assert scoring.era_id == era["era_id"] and scoring.reply_format == era["reply_format"]

    final = _finalize(client, owner, "sub-shared", "share-1")
    assert final["measurement_era"] == era["era_id"]
    assert final["finalization"]["era_is_current"] is True
    assert final["finalization"]["current_era_id"] == era["era_id"]
    assert not any("not the current era" in f for f in final["finalization"]["flags"])

    # the platform's stack moves (two traits judged): share-2 is now of another era
    changed = client.put(
        "/api/evals/config/academy_judge_rubrics",
        json={"value": {"traits": ["negotiation", "integrity"]}},
        headers=owner,
    )
    assert changed.status_code == 200 and changed.json()["era_id"] != era["era_id"]
    moved = _finalize(client, owner, "sub-moved", "share-2")
    assert moved["measurement_era"] == era["era_id"]
    assert moved["finalization"]["era_is_current"] is False
    current = moved["finalization"]["current_era_id"]
    assert current != era["era_id"]
    assert (
        f"measured in era {era['era_id']}, not the current era {current}"
        in (moved["finalization"]["flags"][0])
    )
    # a run scored in the moved stack gives the era its served parts again
    _score(client, owner, "share-3")
    with transaction(engine) as session:
        now = platform.scoring_era(session, settings=settings)
    after = client.get("/api/evals/share-3/scorecard", headers=owner).json()
    assert now.era_id == after["measurement_era"]["era_id"] != current
    assert now.shared_passes and sorted(now.rubric_hashes) == ["integrity", "negotiation"]
