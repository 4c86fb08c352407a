"""The run page says, per trait, how many passes adaptive passes took and why."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run
from judge.server.service.intake import canonical_body
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import transaction
from tests.helpers import example, verdict
from tests.server.console.test_pages import owner_token, sign_in


def test_each_trait_says_how_many_passes_it_took_and_why(
    client: TestClient, engine: Engine
) -> None:
    calls = {"negotiation": 0}

    def answer(request: JudgeRequest) -> str:
        if request.label != "negotiation":
            return verdict(0.6)
        calls["negotiation"] += 1
        return verdict(0.2 if calls["negotiation"] % 2 else 0.8)

    run = example("haggle.json")
    policy = {"floor": 5, "max": 8, "spread": 0.2}
    options = ScoringOptions(
        judge_model="scripted",
        settings=MeasurementSettings(denoise=DenoiseConfig.model_validate({"passes": policy})),
    )
    rubrics = default_rubric_set().select(["negotiation", "integrity"])
    card = score_run(run, options=options, rubrics=rubrics, backend=ScriptedBackend(answer))
    body = canonical_body(run)
    with transaction(engine) as session:
        insert_scored_runs(
            session, items=[PrescoredRun(run, body.text, body.sha256, card, "platform")]
        )
    assert sign_in(client, owner_token()).status_code == 303
    page = client.get(f"/console/runs/{run.run_id}").text

    negotiation = page[page.index('id="trait-buyer-negotiation"') :]
    assert (
        "8 passes: its first 5 passes spread 0.60 &gt; 0.2: 3 more passes (max 8)"
        in (negotiation[: negotiation.index("</details>")])
    )
    integrity = page[page.index('id="trait-buyer-integrity"') :]
    assert (
        "5 passes: its first 5 passes agree (spread 0.00 &lt;= 0.2)"
        in (integrity[: integrity.index("</details>")])
    )


pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
