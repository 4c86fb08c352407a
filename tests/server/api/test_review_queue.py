"""The safety review queue is paged like every other list, on SQLite and PostgreSQL: the API
by ``limit`` and ``cursor`` with a ``Link`` header, the console page by ``after``; lowest
safety mean first, then by run id, every flagged run exactly once."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.scorecard import Scorecard
from tests.conftest import example
from tests.server.console.test_pages import _bulk, owner_token, sign_in

QUEUE = "/api/evals/safety-review"
FLAG_ALL = {"value": {"safety_below": 0.8, "spread_above": 0.3}}
CONFIG = "/api/evals/config/console_safety_review"


def _flagged(
    client: TestClient, owner: dict[str, str], scored: Any, engine: Engine, n: int
) -> None:
    scored(example("haggle"))
    stored = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()
    card = Scorecard.model_validate({k: v for k, v in stored.items() if k != "safety_review"})
    _bulk(engine, n, agent="agent-beta", scenario="market-haggle", card=card, prefix="q")
    url = "/api/evals/config/console_safety_review"
    assert client.put(url, json=FLAG_ALL, headers=owner).status_code == 200


def _walk(client: TestClient, url: str, owner: dict[str, str]) -> list[list[str]]:
    pages: list[list[str]] = []
    next_url: str | None = url
    while next_url is not None:
        answer = client.get(next_url, headers=owner)
        assert answer.status_code == 200, answer.text
        pages.append([entry["run_id"] for entry in answer.json()])
        found = re.fullmatch(r'<([^>]+)>; rel="next"', answer.headers.get("link", ""))
        next_url = found.group(1) if found else None
    return pages


def test_the_api_queue_pages_through_every_flagged_run_once(
    client: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    _flagged(client, owner, scored, engine, 120)

    pages = _walk(client, f"{QUEUE}?limit=50", owner)

    assert [len(p) for p in pages] == [50, 50, 21]
    ids = [run_id for page in pages for run_id in page]
    assert ids == sorted(ids) and len(set(ids)) == 121  # one safety mean: run id order


def test_an_api_queue_entry_carries_its_figures_and_why(
    client: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    _flagged(client, owner, scored, engine, 1)

    [first, _] = client.get(f"{QUEUE}?state=all", headers=owner).json()

    assert set(first) == {
        "run_id", "scenario_id", "agents", "safety_min", "safety_spread", "reasons", "state",
        "held_for_review", "held_seats", "attempt",
    }  # fmt: skip
    assert (first["run_id"], first["scenario_id"], first["safety_min"]) == (
        "haggle-0007",
        "market-haggle",
        0.7,
    )
    assert "agent-alpha" in first["agents"]
    assert first["reasons"] == ["a safety trait mean 0.70 is below 0.80"]
    assert (first["state"], first["attempt"], first["held_for_review"]) == ("none", 1, False)
    assert first["held_seats"] == []  # a safety flag holds no seat


def test_a_decided_run_leaves_the_open_queue(
    client: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    _flagged(client, owner, scored, engine, 2)
    review = "/api/evals/haggle-0007/safety-review"
    assert client.post(review, json={"decision": "cleared"}, headers=owner).status_code == 201

    open_ids = [e["run_id"] for e in client.get(QUEUE, headers=owner).json()]
    cleared = [e["run_id"] for e in client.get(f"{QUEUE}?state=cleared", headers=owner).json()]

    assert open_ids == ["q-000", "q-001"] and cleared == ["haggle-0007"]


def test_a_queue_cursor_that_is_not_one_answers_422(
    client: TestClient, owner: dict[str, str], agent_key: Any
) -> None:
    nan = base64.urlsafe_b64encode(json.dumps(["nan", "x"]).encode()).decode()
    nul = base64.urlsafe_b64encode(json.dumps(["0.5", "x\x00"]).encode()).decode()

    for cursor in (nan, nul, "%%%"):
        answer = client.get(f"{QUEUE}?cursor={cursor}", headers=owner)
        assert answer.status_code == 422 and answer.json()["detail"].startswith("cursor:")
    assert client.get(QUEUE, headers=agent_key("agent-alpha", "buyer")).status_code == 401


@pytest.mark.parametrize(
    ("tab", "trusted"), [("open", ["scripted-test-judge"]), ("weak_judge", [])]
)
def test_every_console_queue_tab_pages_with_a_next_link(
    client: TestClient,
    owner: dict[str, str],
    scored: Any,
    engine: Engine,
    tab: str,
    trusted: list[str],
) -> None:
    _flagged(client, owner, scored, engine, 60)
    limits = {"value": {**FLAG_ALL["value"], "trusted_judges": trusted}}
    assert client.put(CONFIG, json=limits, headers=owner).status_code == 200
    assert sign_in(client, owner_token()).status_code == 303

    first = client.get(f"/console/queue?state={tab}")
    found = re.search(r'id="next-page" href="([^"]+)"', first.text)
    assert found is not None
    second = client.get(found.group(1).replace("&amp;", "&"))

    page1 = re.findall(r'<tr data-run="([^"]+)"', first.text)
    page2 = re.findall(r'<tr data-run="([^"]+)"', second.text)
    assert f"state={tab}&amp;after=" in found.group(1)
    assert (len(page1), len(page2)) == (50, 11) and not set(page1) & set(page2)
    assert 'id="next-page"' not in second.text
