"""The console's online rules (no browser), on SQLite and PostgreSQL: a rule made, changed,
paused and resumed through its forms (CSRF and same-origin checked, a bad field named), live
traces sent to ``/v1/traces`` turned into the rule's scored runs, a change of filters or rate
that scores nothing again, and agent and ingest keys refused on every rules page."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.engine.settings import Settings
from judge.server.console.rules import attribute_text, attribute_value
from judge.server.store import ingest as ingest_repo
from judge.server.store.db import transaction
from tests.conftest import key_headers, service_settings
from tests.server.api.test_traces import TRACE, chat, export, root
from tests.server.console.test_pages import ORIGIN, _csrf, owner_token, sign_in

OTHER_TRACE = "6c9f0a8e1d2b3c4d5e6f708192a3b4c5"


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The service with a short quiet period, so a trace becomes a run within the test."""
    return service_settings(database_url).model_copy(
        update={"ingest_quiet_s": 0.1, "ingest_sweep_s": 0.05}
    )


@pytest.fixture
def signed_in(client: TestClient) -> TestClient:
    assert sign_in(client, owner_token()).status_code == 303
    return client


def _form(**changes: str) -> dict[str, str]:
    form = {
        "name": "shop replies",
        "service_names": "shop-bot",
        "scenarios": "",
        "agents": "helper",
        "span_attributes": "gen_ai.operation.name = chat",
        "sample_rate": "1",
        "seed": "",
        "trait.negotiation": "on",
        "judge": "",
        "max_runs_per_day": "",
    }
    return {**form, **changes}


def _post(client: TestClient, path: str, form: dict[str, str], *, csrf: str | None) -> Any:
    data = form if csrf is None else {**form, "csrf": csrf}
    return client.post(path, data=data, headers=ORIGIN, follow_redirects=False)


def _create(client: TestClient, **changes: str) -> str:
    csrf = _csrf(client.get("/console/rules").text)
    made = _post(client, "/console/rules", _form(**changes), csrf=csrf)
    assert made.status_code == 303, made.text
    location: str = made.headers["location"]
    return location.removeprefix("/console/rules/")


def test_a_rule_made_through_the_form_is_stored_with_typed_filters_and_listed(
    signed_in: TestClient, owner: dict[str, str]
) -> None:
    rule_id = _create(
        signed_in,
        span_attributes="gen_ai.operation.name = chat\ngen_ai.usage.input_tokens = 12\n"
        'stream = true\nticket = "12"',
        sample_rate="0.25",
        seed="shared-seed",
        max_runs_per_day="40",
        judge="scripted/0.7",
        **{"trait.integrity": "on"},
    )
    stored = signed_in.get(f"/api/evals/rules/{rule_id}", headers=owner).json()
    listing = signed_in.get("/console/rules").text
    row = listing.split(f'data-rule="{rule_id}"')[1].split("</tr>")[0]
    shown = signed_in.get(f"/console/rules/{rule_id}").text

    assert stored["filters"] == {
        "service_names": ["shop-bot"],
        "scenarios": [],
        "agents": ["helper"],
        "span_attributes": {
            "gen_ai.operation.name": "chat",
            "gen_ai.usage.input_tokens": 12,
            "stream": True,
            "ticket": "12",
        },
    }
    assert (stored["sample_rate"], stored["seed"], stored["max_runs_per_day"]) == (
        0.25,
        "shared-seed",
        40,
    )
    assert stored["traits"] == ["negotiation", "integrity"] and stored["judge"] == "scripted/0.7"
    assert stored["created_by"] == "owner:ops" and stored["paused"] is False
    assert "shop replies" in row and "active" in row and "0.25" in row
    assert "service shop-bot; agent helper; gen_ai.operation.name = chat" in row
    assert "ticket = &#34;12&#34;" in shown and "gen_ai.usage.input_tokens = 12" in shown
    assert 'name="trait.integrity" checked' in shown and 'name="trait.calibration" >' in shown


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"sample_rate": "1.5"}, "sample_rate: Input should be less than or equal to 1"),
        ({"sample_rate": "half"}, "sample_rate:"),
        ({"trait.negotiation": "", "trait.charm": "on"}, "charm"),
        (
            {"span_attributes": "just a word"},
            "span_attributes: line 1 is not of the form attribute = value",
        ),
        ({"name": "  "}, "name:"),
        ({"max_runs_per_day": "0"}, "max_runs_per_day:"),
    ],
)
def test_a_bad_field_is_refused_naming_it_and_nothing_is_stored(
    signed_in: TestClient, owner: dict[str, str], changes: dict[str, str], named: str
) -> None:
    form = _form(**changes)
    if changes.get("trait.negotiation") == "":
        del form["trait.negotiation"]
    csrf = _csrf(signed_in.get("/console/rules").text)

    answer = _post(signed_in, "/console/rules", form, csrf=csrf)

    assert answer.status_code == 422, answer.text
    assert named in answer.text and "Sign out" in answer.text
    assert signed_in.get("/api/evals/rules", headers=owner).json() == []


def test_a_form_without_its_csrf_token_or_from_another_site_changes_nothing(
    signed_in: TestClient, owner: dict[str, str]
) -> None:
    rule_id = _create(signed_in)
    csrf = _csrf(signed_in.get(f"/console/rules/{rule_id}").text)

    missing = _post(signed_in, "/console/rules", _form(), csrf=None)
    changed = _post(signed_in, f"/console/rules/{rule_id}", _form(sample_rate="0"), csrf="x" * 64)
    cross = signed_in.post(
        f"/console/rules/{rule_id}",
        data={"csrf": csrf, "paused": "yes"},
        headers={"Origin": "http://evil.example"},
        follow_redirects=False,
    )

    assert (missing.status_code, changed.status_code, cross.status_code) == (403, 403, 403)
    (stored,) = signed_in.get("/api/evals/rules", headers=owner).json()
    assert (stored["sample_rate"], stored["paused"], stored["version"]) == (1.0, False, 1)


def _wait(check: Any, what: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _final(client: TestClient, run_id: str, owner: dict[str, str]) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        body: dict[str, Any] = client.get(f"/api/evals/runs/{run_id}", headers=owner).json()
        return body if body["status"] in ("scored", "not_scored") else None

    found: dict[str, Any] = _wait(done, f"run {run_id} to be final")
    return found


def test_changing_a_rules_filters_and_rate_on_its_page_never_rescores_what_it_scored(
    signed_in: TestClient, owner: dict[str, str], engine: Engine
) -> None:
    rule_id = _create(signed_in)
    key = signed_in.post("/api/ingest/keys", json={"source": "shop"}, headers=owner).json()["key"]
    sent = signed_in.post(
        "/v1/traces", json=export(root(), chat()), headers={"x-judge-ingest-key": key}
    )
    assert sent.status_code == 200, sent.text
    runs_url = f"/api/evals/rules/{rule_id}/runs"
    (made,) = _wait(lambda: signed_in.get(runs_url, headers=owner).json(), "the rule's run")
    scored = _final(signed_in, made["run_id"], owner)
    card = signed_in.get(f"/api/evals/{made['run_id']}/scorecard", headers=owner).json()

    page = signed_in.get(f"/console/rules/{rule_id}").text
    changed = _post(
        signed_in,
        f"/console/rules/{rule_id}",
        _form(
            service_names="billing",
            sample_rate="0",
            span_attributes="",
            **{"trait.negotiation": "", "trait.integrity": "on"},
        ),
        csrf=_csrf(page),
    )
    other = export(root(OTHER_TRACE), chat(OTHER_TRACE))
    assert (
        signed_in.post("/v1/traces", json=other, headers={"x-judge-ingest-key": key}).status_code
        == 200
    )

    def decided() -> bool:
        with transaction(engine) as session:
            row = ingest_repo.get_trace(session, source="shop", trace_id=OTHER_TRACE)
            return row is not None and row.state == "done"

    _wait(decided, "the second trace to be decided")
    rule = signed_in.get(f"/api/evals/rules/{rule_id}", headers=owner).json()
    shown = signed_in.get(f"/console/rules/{rule_id}").text
    run_row = shown.split(f'data-run="{made["run_id"]}"')[1].split("</tr>")[0]

    assert changed.status_code == 303 and changed.headers["location"] == f"/console/rules/{rule_id}"
    assert scored["status"] == "scored" and scored["leaderboard_class"] == "online"
    assert list(card["seats"]["agent"]["traits"]) == ["negotiation"]
    assert (rule["version"], rule["sample_rate"], rule["traits"]) == (2, 0.0, ["integrity"])
    assert rule["filters"]["service_names"] == ["billing"]
    assert signed_in.get(runs_url, headers=owner).json() == [made]  # version 1, negotiation
    assert made["trace_id"] == TRACE and made["rule_version"] == 1
    again = _final(signed_in, made["run_id"], owner)
    assert again["scored_at"] == scored["scored_at"]
    assert signed_in.get(f"/api/evals/{made['run_id']}/scorecard", headers=owner).json() == card
    assert '<td class="n">1</td>' in run_row and "negotiation" in run_row
    assert "integrity" not in run_row and "version 2" in shown


def test_pause_and_resume_buttons_stop_and_restart_a_rule(
    signed_in: TestClient, owner: dict[str, str]
) -> None:
    rule_id = _create(signed_in, sample_rate="0.5")
    csrf = _csrf(signed_in.get("/console/rules").text)

    paused = _post(
        signed_in, f"/console/rules/{rule_id}", {"paused": "yes", "back": "list"}, csrf=csrf
    )
    listed = signed_in.get("/console/rules").text
    after_pause = signed_in.get(f"/api/evals/rules/{rule_id}", headers=owner).json()
    resumed = _post(signed_in, f"/console/rules/{rule_id}", {"paused": "no"}, csrf=csrf)
    after_resume = signed_in.get(f"/api/evals/rules/{rule_id}", headers=owner).json()

    assert paused.headers["location"] == "/console/rules"
    assert resumed.headers["location"] == f"/console/rules/{rule_id}"
    assert (after_pause["paused"], after_pause["version"]) == (True, 2)
    assert (after_resume["paused"], after_resume["version"]) == (False, 3)
    assert after_resume["sample_rate"] == 0.5 and after_resume["traits"] == ["negotiation"]
    row = listed.split(f'data-rule="{rule_id}"')[1].split("</tr>")[0]
    assert "paused" in row and 'name="paused" value="no"' in row and ">Resume<" in row


def test_an_unknown_rule_is_a_404_page(signed_in: TestClient) -> None:
    answer = signed_in.get("/console/rules/rule-none")

    assert answer.status_code == 404 and "rule &#39;rule-none&#39; not found" in answer.text


def test_agent_and_ingest_keys_never_open_or_change_a_rule(
    client: TestClient, owner: dict[str, str], engine: Engine
) -> None:
    made = client.post(
        "/api/evals/rules",
        json={"name": "secret rule", "sample_rate": 1.0, "traits": ["negotiation"]},
        headers=owner,
    ).json()
    ingest = client.post("/api/ingest/keys", json={"source": "shop"}, headers=owner).json()["key"]
    agent = key_headers(engine, "helper", "agent")
    paths = ("/console/rules", f"/console/rules/{made['rule_id']}")
    credentials = (
        agent,
        {"Authorization": f"Bearer {ingest}"},
        {"x-judge-ingest-key": ingest},
    )

    answers = [client.get(p, headers=h) for p in paths for h in credentials]
    answers += [
        client.post(p, data=_form(), headers={**ORIGIN, **h}, follow_redirects=False)
        for p in paths
        for h in credentials
    ]
    answers.append(sign_in(client, ingest))
    client.cookies.set("judge_console", ingest, path="/console")
    answers.append(client.get("/console/rules"))

    for answer in answers:
        assert answer.status_code == 401, answer.text
        assert "secret rule" not in answer.text and "negotiation" not in answer.text
    stored = client.get(f"/api/evals/rules/{made['rule_id']}", headers=owner).json()
    assert stored == made
    assert len(client.get("/api/evals/rules", headers=owner).json()) == 1


@pytest.mark.parametrize("value", ["chat", "12", 12, 1.5, True, False, 'say "hi"', "true", "-0"])
def test_an_attribute_value_shown_in_the_form_reads_back_with_its_type(value: Any) -> None:
    back = attribute_value(attribute_text(value))

    assert back == value and type(back) is type(value)
