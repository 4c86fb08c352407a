"""Trust: worlds come from the platform, agent runs are self-reported, attributed to the key's
agent only, and live in the agent's own namespace (docs/security.md)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.run import Run
from judge.engine.checks.scenario import load_scenario
from judge.engine.checks.worlds import build_world, load_replay
from judge.engine.judging.backends import ScriptedBackend
from judge.server.service.intake import canonical_body
from judge.server.service.jobs import score_stored_run
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from judge.server.web import create_app
from tests.conftest import (
    VERDICT,
    example,
    key_headers,
    owner_headers,
    service_settings,
    wait_final,
)

SHOP = Path(__file__).resolve().parents[3] / "scenarios" / "shop_refund"
RUN = "careful/pass"


class Listener:
    """A TCP listener on loopback that records every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = int(self.sock.getsockname()[1])
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    root = tmp_path / "scenarios"
    shutil.copytree(SHOP, root / "shop_refund", ignore=shutil.ignore_patterns("runs"))
    scenario = load_scenario(root / "shop_refund" / "scenario.yaml")
    assert scenario.world is not None
    build_world(scenario.world, load_replay(SHOP / "runs" / f"{RUN}.replay.yaml"), root, "pass")
    return root


@pytest.fixture
def client(database_url: str, scenarios: Path) -> Iterator[TestClient]:
    settings = service_settings(database_url).model_copy(update={"scenarios_dir": scenarios})
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    with TestClient(create_app(settings, backends=lambda model: judge)) as client:
        yield client


def shop_run(**world: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHOP / "runs" / f"{RUN}.json").read_text())
    if world:
        data["world"] = {**data["world"], **world}
    return data


def _count(engine: Engine) -> int:
    with transaction(engine) as session:
        return run_repo.count_runs(session)


# worlds ---------------------------------------------------------------------------------


def test_an_owner_run_with_a_world_inside_the_scenarios_folder_is_scored_with_its_checks(
    client: TestClient,
) -> None:
    owner = owner_headers()
    assert client.post("/api/evals/runs", json=shop_run(), headers=owner).status_code == 202
    assert wait_final(client, "shop-refund-careful-s1", owner)["status"] == "scored"
    card = client.get("/api/evals/shop-refund-careful-s1/scorecard", headers=owner).json()
    assert card["state_outcome"]["outcome"] == "verified"


def test_an_agent_run_may_not_name_a_world_database(client: TestClient, engine: Engine) -> None:
    key = key_headers(engine, "careful-agent", "agent")

    answer = client.post("/api/agent/runs", json=shop_run(), headers=key)

    assert answer.status_code == 422
    assert answer.json()["detail"].startswith(
        "world.end_state, world.after_horizon, world.step_states.0.database, world.step_states.1.database: "
        "a run submitted with an agent key may not name a database"
    )
    assert _count(engine) == 0


@pytest.mark.parametrize(
    ("locator", "why"),
    [
        ("/etc/passwd", "give a path relative to the scenarios folder, without '..'"),
        ("../judge.db", "give a path relative to the scenarios folder, without '..'"),
        (
            "shop_refund/../../judge.db",
            "give a path relative to the scenarios folder, without '..'",
        ),
        ("escape.db", "the path leaves the scenarios folder (through a link)"),
    ],
)
def test_an_owner_world_outside_the_scenarios_folder_is_refused(
    client: TestClient, engine: Engine, scenarios: Path, database_url: str, locator: str, why: str
) -> None:
    (scenarios / "escape.db").symlink_to("/etc/passwd")

    answer = client.post(
        "/api/evals/runs", json=shop_run(end_state=locator), headers=owner_headers()
    )

    assert answer.status_code == 422
    assert answer.json()["detail"] == f"world.end_state: {why}"
    assert _count(engine) == 0


def test_the_services_own_database_cannot_be_named_as_a_world(
    client: TestClient, engine: Engine, database_url: str
) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("the service's own database is a file only on SQLite")
    own = database_url.removeprefix("sqlite:///")
    assert os.path.isabs(own)

    answer = client.post("/api/evals/runs", json=shop_run(end_state=own), headers=owner_headers())

    assert answer.status_code == 422 and _count(engine) == 0


def test_a_database_url_off_the_allow_list_is_refused_and_never_connected_to(
    client: TestClient, engine: Engine, listener: Listener
) -> None:
    url = f"postgresql://probe@127.0.0.1:{listener.port}/world"

    answer = client.post("/api/evals/runs", json=shop_run(end_state=url), headers=owner_headers())
    agent = client.post(
        "/api/agent/runs",
        json=shop_run(end_state=url),
        headers=key_headers(engine, "careful-agent", "agent"),
    )
    time.sleep(0.5)

    assert answer.status_code == agent.status_code == 422
    assert "not on the owner's allow-list" in answer.json()["detail"]
    assert url not in answer.text
    assert listener.connections == 0 and _count(engine) == 0


def test_an_owner_allow_listed_database_url_is_accepted_and_audited(
    client: TestClient, listener: Listener
) -> None:
    owner = owner_headers()
    url = f"postgresql://probe@127.0.0.1:{listener.port}/world"
    put = client.put(
        "/api/evals/config/state_database_urls", json={"value": {"urls": [url]}}, headers=owner
    )
    assert put.status_code == 200, put.text

    answer = client.post("/api/evals/runs", json=shop_run(end_state=url), headers=owner)

    assert answer.status_code == 202
    audit = client.get("/api/evals/config/state_database_urls/audit", headers=owner).json()
    assert [a["changed_by"] for a in audit] == ["owner:ops"]


def test_the_allow_list_holds_only_database_urls(client: TestClient) -> None:
    bad = client.put(
        "/api/evals/config/state_database_urls",
        json={"value": {"urls": ["/etc/passwd"]}},
        headers=owner_headers(),
    )

    assert bad.status_code == 422 and "postgresql:// URL" in bad.json()["detail"]


# attribution, self-reporting, namespaces ------------------------------------------------

DUEL = [
    {"seat": "buyer", "agent_id": "agent-alpha", "scored": True},
    {"seat": "seller", "agent_id": "agent-beta", "scored": True},
]


@pytest.fixture
def plain(database_url: str) -> Iterator[TestClient]:
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    with TestClient(
        create_app(service_settings(database_url), backends=lambda model: judge)
    ) as client:
        yield client


def test_an_agent_may_not_name_another_agent_in_a_scored_seat(
    plain: TestClient, engine: Engine
) -> None:
    alpha = key_headers(engine, "agent-alpha", "buyer")

    answer = plain.post("/api/agent/runs", json=example("haggle", seats=DUEL), headers=alpha)

    assert answer.status_code == 403
    assert answer.json()["detail"].startswith("seats: ['seller'] name other agents as scored seats")
    assert _count(engine) == 0


def test_an_agent_key_must_sit_scored_in_its_seat(plain: TestClient, engine: Engine) -> None:
    alpha = key_headers(engine, "agent-alpha", "buyer")
    seats = [
        {"seat": "buyer", "agent_id": "agent-alpha", "scored": False},
        {"seat": "seller", "agent_id": "agent-alpha", "scored": True},
    ]

    answer = plain.post("/api/agent/runs", json=example("haggle", seats=seats), headers=alpha)

    assert answer.status_code == 403 and _count(engine) == 0
    assert "which the run does not list as a scored seat" in answer.json()["detail"]


def test_another_agent_never_sees_a_self_reported_run_that_names_it(
    plain: TestClient, engine: Engine
) -> None:
    alpha = key_headers(engine, "agent-alpha", "buyer")
    beta = key_headers(engine, "agent-beta", "seller")
    seats = [
        {"seat": "buyer", "agent_id": "agent-alpha", "scored": True},
        {"seat": "seller", "agent_id": "agent-beta", "scored": False},
    ]
    assert (
        plain.post(
            "/api/agent/runs", json=example("haggle", seats=seats), headers=alpha
        ).status_code
        == 202
    )

    assert plain.get("/api/agent/runs/agent-alpha:haggle-0007", headers=beta).status_code == 404
    assert plain.get("/api/agent/runs/agent-alpha:haggle-0007", headers=alpha).status_code == 200


def test_a_self_reported_run_is_never_ranked_and_says_so_on_its_card(
    plain: TestClient, engine: Engine
) -> None:
    alpha, owner = key_headers(engine, "agent-alpha", "buyer"), owner_headers()
    assert plain.post("/api/agent/runs", json=example("haggle"), headers=alpha).status_code == 202
    assert (
        plain.post(
            "/api/evals/runs", json=example("haggle", run_id="platform-1"), headers=owner
        ).status_code
        == 202
    )
    for run_id in ("agent-alpha:haggle-0007", "platform-1"):
        assert wait_final(plain, run_id, owner)["status"] == "scored"

    mine = plain.get("/api/agent/runs/agent-alpha:haggle-0007/scorecard", headers=alpha).json()
    platform = plain.get("/api/agent/runs/platform-1/scorecard", headers=alpha).json()

    assert (mine["leaderboard_class"], mine["ranked_eligible"]) == ("self_reported", False)
    assert (platform["leaderboard_class"], platform["ranked_eligible"]) == ("ranked", True)


def test_a_self_reported_submission_is_listed_apart_and_never_ranked(
    plain: TestClient, engine: Engine
) -> None:
    alpha, owner = key_headers(engine, "agent-alpha", "buyer"), owner_headers()
    plain.post("/api/agent/runs", json=example("haggle"), headers=alpha)
    wait_final(plain, "agent-alpha:haggle-0007", owner)
    body = {
        "submission_id": "mine",
        "scenario_id": "market-haggle",
        "run_ids": ["agent-alpha:haggle-0007"],
    }
    assert plain.post("/api/agent/submissions", json=body, headers=alpha).status_code == 201

    public = plain.post(
        "/api/agent/submissions/mine/finalize", json={"visibility": "public"}, headers=alpha
    )
    done = plain.post("/api/agent/submissions/mine/finalize", json={}, headers=alpha)
    board = plain.get("/api/leaderboards/market-haggle", headers=owner).json()

    assert public.status_code == 422 and "self_reported class" in public.json()["detail"]
    assert done.status_code == 200
    assert (done.json()["leaderboard_class"], done.json()["visibility"]) == (
        "self_reported",
        "unlisted",
    )
    assert board["ranked"] == [] and board["self_hosted_facilitator"] == []
    assert [(r["agent_id"], r["rank"]) for r in board["self_reported"]] == [("agent-alpha", None)]


def test_agent_run_ids_live_in_the_agents_namespace_so_no_one_can_squat_or_probe(
    plain: TestClient, engine: Engine
) -> None:
    alpha = key_headers(engine, "agent-alpha", "buyer")
    beta = key_headers(engine, "agent-beta", "buyer")
    data = example("haggle")
    beta_data = example(
        "haggle",
        seats=[
            {"seat": "buyer", "agent_id": "agent-beta", "scored": True},
            {"seat": "seller", "agent_id": "house-adversary", "scored": False},
        ],
    )

    first = plain.post("/api/agent/runs", json=data, headers=alpha)
    other = plain.post("/api/agent/runs", json=beta_data, headers=beta)
    owner = plain.post("/api/evals/runs", json=data, headers=owner_headers())
    probe = plain.post(
        "/api/agent/runs", json={**beta_data, "run_id": "agent-alpha:haggle-0007"}, headers=beta
    )

    assert [r.status_code for r in (first, other, owner)] == [202, 202, 202]
    assert [r.json()["run_id"] for r in (first, other, owner)] == [
        "agent-alpha:haggle-0007",
        "agent-beta:haggle-0007",
        "haggle-0007",
    ]
    assert probe.status_code == 422 and "may not contain ':'" in probe.json()["detail"]
    assert plain.get("/api/agent/runs/agent-alpha:haggle-0007", headers=beta).status_code == 404


def test_a_world_that_left_the_folder_after_intake_is_refused_when_scoring_starts(
    database_url: str, engine: Engine, scenarios: Path
) -> None:
    """The rules are applied again at scoring: a link made after the run was stored."""
    data = shop_run(end_state="later.db")
    run = Run.model_validate(data)
    body = canonical_body(run)
    with transaction(engine) as session:
        run_repo.insert_run(
            session, run=run, body_json=body.text, body_sha256=body.sha256, submitted_by="owner:ops"
        )
    (scenarios / "later.db").symlink_to("/etc/passwd")
    settings = service_settings(database_url).model_copy(update={"scenarios_dir": scenarios})
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")

    asyncio.run(
        score_stored_run(engine, run_id=run.run_id, settings=settings, backends=lambda model: judge)
    )

    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id=run.run_id)
    assert row is not None and row.status == "not_scored"
    assert row.reason == "world.end_state: the path leaves the scenarios folder (through a link)"
    assert judge.history == []  # refused before any judge call was paid for


def test_a_namespaced_agent_run_reads_back_on_every_route(
    plain: TestClient, engine: Engine
) -> None:
    from judge.tools.tabular import rows_of, stored_scorecards
    from tests.server.console.test_pages import owner_token, sign_in

    alpha, owner = key_headers(engine, "agent-alpha", "buyer"), owner_headers()
    assert plain.post("/api/agent/runs", json=example("haggle"), headers=alpha).status_code == 202
    run_id = "agent-alpha:haggle-0007"
    assert wait_final(plain, run_id, owner)["status"] == "scored"
    review = {"decision": "rescore_requested", "note": "second look"}
    assert (
        plain.post(f"/api/evals/{run_id}/safety-review", json=review, headers=owner).status_code
        == 201
    )
    assert wait_final(plain, run_id, owner)["status"] == "scored"

    for path in (
        f"/api/evals/runs/{run_id}",
        f"/api/evals/{run_id}/scorecard",
        f"/api/evals/{run_id}/scorecards/1",
        f"/api/evals/{run_id}/metrics",
        f"/api/evals/{run_id}/safety-review",
    ):
        answer = plain.get(path, headers=owner)
        assert answer.status_code == 200, (path, answer.text)
        assert run_id in answer.text, path
    for path in (f"/api/agent/runs/{run_id}", f"/api/agent/runs/{run_id}/scorecard"):
        answer = plain.get(path, headers=alpha)
        assert answer.status_code == 200 and answer.json()["run_id"] == run_id, (path, answer.text)
    owner_steps = [
        json.loads(line)
        for line in plain.get(f"/api/evals/{run_id}/trajectory", headers=owner).text.splitlines()
    ]
    agent_steps = [
        json.loads(line)
        for line in plain.get(
            f"/api/agent/runs/{run_id}/trajectory", headers=alpha
        ).text.splitlines()
    ]
    assert owner_steps and {step["run_id"] for step in owner_steps} == {run_id}
    assert agent_steps and {(step["run_id"], step["seat"]) for step in agent_steps} == {
        (run_id, "buyer")
    }
    assert plain.get(f"/api/agent/runs/{run_id}/coaching", headers=alpha).status_code != 404
    rows = list(
        rows_of(stored_scorecards(engine.url.render_as_string(hide_password=False)), "traits")
    )
    assert rows and {row["run_id"] for row in rows} == {run_id}

    assert sign_in(plain, owner_token()).status_code == 303
    page = plain.get(f"/console/runs/{run_id}")
    listing = plain.get("/console/runs")
    assert page.status_code == 200 and run_id in page.text
    link = re.search(
        r'<a href="(/console/runs/agent-alpha[^"]+)">agent-alpha:haggle-0007</a>', listing.text
    )
    assert listing.status_code == 200 and link, listing.text
    followed = plain.get(link.group(1))
    assert followed.status_code == 200 and "second look" in followed.text


def test_a_key_for_an_unscored_seat_finds_the_run_missing_on_every_route(
    plain: TestClient, engine: Engine
) -> None:
    owner = owner_headers()
    assert plain.post("/api/evals/runs", json=example("haggle"), headers=owner).status_code == 202
    assert wait_final(plain, "haggle-0007", owner)["status"] == "scored"
    house = key_headers(engine, "house-adversary", "seller")

    answers = [
        plain.get(f"/api/agent/runs/haggle-0007{tail}", headers=house)
        for tail in ("", "/scorecard", "/coaching", "/trajectory")
    ]

    assert [a.status_code for a in answers] == [404, 404, 404, 404]
    assert {a.json()["detail"] for a in answers} == {"run 'haggle-0007' not found"}
