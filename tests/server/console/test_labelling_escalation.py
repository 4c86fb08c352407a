"""The agreement page's selective escalation (no browser): per labelled trait, the coverage-
agreement curve on both splits and the stored target with its held-out figures, or why the
target cannot be reached."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from tests.server.console.test_pages import owner_token, sign_in
from tests.server.service.escalation_world import TRAIT, blind, load, tracking


def _section(client: TestClient) -> str:
    assert sign_in(client, owner_token()).status_code == 303
    page = client.get("/console/agreement")
    assert page.status_code == 200, page.text
    return page.text.split(f'id="escalation-{TRAIT}"')[1].split("</section>")[0]


def test_the_page_draws_the_curve_and_the_target_the_held_out_runs_met(
    client: TestClient, owner: dict[str, str], engine: Engine
) -> None:
    load(engine, tracking(n=48))
    assert client.put(
        f"/api/evals/escalation/{TRAIT}", json={"target": 0.8}, headers=owner
    ).is_success

    shown = _section(client)
    rows = shown.split("<tbody>")[1].split("</tr>")

    assert "threshold <strong>0.90</strong>" in shown and "target met" in shown
    assert 'class="held-out"' in shown and 'class="target"' in shown
    assert [r.split('<td class="n">')[1].split("<")[0] for r in rows[:3]] == [
        "1.00",
        "0.90",
        "0.00",
    ]


def test_without_a_target_the_page_still_draws_the_curve(
    client: TestClient, engine: Engine
) -> None:
    load(engine, tracking(n=24))

    shown = _section(client)

    assert "No target set" in shown and 'class="held-out"' in shown


def test_an_unreachable_target_is_shown_as_such_never_as_a_threshold(
    client: TestClient, owner: dict[str, str], engine: Engine
) -> None:
    load(engine, blind(n=48))
    client.put(f"/api/evals/escalation/{TRAIT}", json={"target": 0.8}, headers=owner)

    shown = _section(client)

    assert "not reachable: target 0.8 not reachable" in shown and "<strong>" not in shown
