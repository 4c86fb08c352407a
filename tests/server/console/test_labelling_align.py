"""The agreement page shows each `judge align` proposal with its held-out figures before an
owner adopts it, and the era it opened after (docs/alignment.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import Settings
from judge.server.web import create_app
from tests.align_judges import TRAIT, exemplar_learner, label_runs
from tests.conftest import owner_headers
from tests.server.console.test_pages import owner_token, sign_in

OWNER = owner_headers()


@pytest.fixture
def signed_in(settings: Settings) -> Iterator[TestClient]:
    judge = ScriptedBackend(exemplar_learner, model="scripted-test-judge")
    with TestClient(create_app(settings, backends=lambda model: judge)) as client:
        label_runs(client, OWNER)
        assert sign_in(client, owner_token()).status_code == 303
        yield client


def _row(page: str, kind: str) -> str:
    return page.split(f'data-kind="{kind}"')[1].split("</tr>")[0]


def test_the_agreement_page_shows_a_proposal_before_and_the_new_era_after_adoption(
    signed_in: TestClient,
) -> None:
    made = signed_in.post("/api/evals/alignments", json={"trait": TRAIT}, headers=OWNER).json()
    before = _row(signed_in.get("/console/agreement").text, "exemplars")

    adopted = signed_in.post(
        f"/api/evals/alignments/{made['id']}/adopt", json={"kind": "exemplars"}, headers=OWNER
    ).json()
    after = _row(signed_in.get("/console/agreement").text, "exemplars")

    assert "0.33 / 0.00" in before  # held-out MAE, baseline then candidate
    assert "seed 39 (6 / 6 runs)" in signed_in.get("/console/agreement").text
    assert "<td>yes</td>" in before and "&rarr;" not in before.split("<td>yes</td>")[1]
    assert "buyer" in before  # the owners' notes are the exemplars' reasons
    assert (
        f"era <code>{adopted['era_before']}</code> &rarr; <code>{adopted['era_after']}</code>"
        in after
    )
    assert "era <code>" not in _row(signed_in.get("/console/agreement").text, "anchors")
