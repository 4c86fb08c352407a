"""Selective escalation in the console (no browser): the agreement page draws each labelled
trait's coverage-agreement curve with its stored target and held-out figures, or why the target
cannot be reached; the run page says who decided a trait that has a target."""

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


def _decision(client: TestClient, run_id: str) -> str:
    page = client.get(f"/console/runs/{run_id}")
    assert page.status_code == 200, page.text
    return page.text.split(f'id="decision-buyer-{TRAIT}"')[1].split("</p>")[0]


def test_the_run_page_says_who_decided_a_trait_with_a_target(
    client: TestClient, owner: dict[str, str], engine: Engine
) -> None:
    load(engine, tracking(n=48))
    client.put(f"/api/evals/escalation/{TRAIT}", json={"target": 0.8}, headers=owner)
    assert sign_in(client, owner_token()).status_code == 303

    sure, unsure = _decision(client, "esc-000"), _decision(client, "esc-003")

    assert "Decided by <strong>scripted-sure</strong> (confidence 1.00, threshold 0.90)" in sure
    assert "Escalated to the owners: low judge confidence (confidence 0.00" in unsure


def test_the_run_page_says_nothing_of_escalation_without_a_target(
    client: TestClient, engine: Engine
) -> None:
    load(engine, tracking(n=8))
    assert sign_in(client, owner_token()).status_code == 303

    assert 'id="decision-' not in client.get("/console/runs/esc-000").text
