"""One caller seam: one actor string in every audit row, and one handler per operation
mounted for owners and agent keys, each mount taking only its own credential."""

from __future__ import annotations

import inspect

import pytest
from sqlalchemy.engine import Engine

from judge.core.errors import AuthError
from judge.server.api.caller import (
    Admission,
    Caller,
    admitting,
    agent_actor,
    agent_of_key,
    bearer_of,
    current_agent,
    current_owner,
    ingest_token,
    owner_actor,
)
from judge.server.api.limits import bearer_token
from judge.server.auth import AgentIdentity
from tests.conftest import key_headers
from tests.helpers import statements_sent
from tests.server.api.conftest import Live


def test_the_actor_string_is_owner_or_agent_with_its_name() -> None:
    agent = AgentIdentity(agent_id="agent-alpha", seat="buyer", prefix="p" * 12)

    assert Caller("ops", None).actor == owner_actor("ops") == "owner:ops"
    assert Caller.of_agent(agent).actor == agent_actor("agent-alpha") == "agent:agent-alpha"


def test_config_rubric_and_submission_audit_rows_name_the_owner_the_same_way(live: Live) -> None:
    url = "/api/evals/config/academy_eval_participation"
    assert (
        live.client.put(
            url, json={"value": {"min_player_messages": 2}}, headers=live.owner
        ).status_code
        == 200
    )
    sub = {
        "submission_id": "actor-1",
        "scenario_id": "market-haggle",
        "agent_id": "agent-alpha",
        "run_ids": [],
    }
    live.client.post("/api/evals/submissions", json=sub, headers=live.owner)

    audit = live.client.get(f"{url}/audit", headers=live.owner).json()
    config = live.client.get(url, headers=live.owner).json()
    eras = live.client.get("/api/evals/eras?limit=200", headers=live.owner).json()

    assert audit[-1]["changed_by"] == config["updated_by"] == "owner:ops"
    assert {e["opened_by"] for e in eras} <= {"owner:ops", "system:service", "system:scoring"}


def test_one_handler_serves_both_mounts_each_with_its_own_credential(live: Live) -> None:
    owner_view = live.client.get(f"/api/evals/runs/{live.agent_run}", headers=live.owner)
    agent_view = live.client.get(f"/api/agent/runs/{live.agent_run}", headers=live.agent)

    assert owner_view.json()["run_id"] == agent_view.json()["run_id"] == live.agent_run
    assert (
        live.client.get(f"/api/agent/runs/{live.agent_run}", headers=live.owner).status_code == 401
    )
    assert (
        live.client.get(f"/api/evals/runs/{live.agent_run}", headers=live.agent).status_code == 401
    )


def test_admitting_swaps_only_the_callers_dependency() -> None:
    def handler(run_id: str, caller: Caller) -> str:
        return f"{run_id}:{caller.actor}"

    owner_side, agent_side = admitting(handler, "owner"), admitting(handler, "agent")

    deps = {
        name: inspect.signature(fn).parameters["caller"].annotation.__metadata__[0].dependency
        for name, fn in (("owner", owner_side), ("agent", agent_side))
    }
    assert deps == {"owner": current_owner, "agent": current_agent}
    assert owner_side(run_id="r", caller=Caller("ops", None)) == "r:owner:ops"


def test_a_handler_taking_an_admission_declares_no_credential_dependency_and_publishes_it(
    live: Live,
) -> None:
    async def handler(run_id: str, admission: Admission) -> str:
        return f"{run_id}:{admission.owner}"

    owner_side = admitting(handler, "owner")
    assert list(inspect.signature(owner_side).parameters) == ["run_id", "request"]

    published = live.client.get("/openapi.json").json()["paths"]
    for path, scheme in (
        ("/api/evals/runs/{run_id}", "OwnerToken"),
        ("/api/agent/runs/{run_id}", "AgentKey"),
    ):
        assert published[path]["get"]["security"] == [{scheme: []}]
    # the status routes admit themselves: each refuses the other credential and a revoked key
    assert (
        live.client.get(f"/api/agent/runs/{live.agent_run}", headers=live.owner).status_code == 401
    )
    forged = {"Authorization": live.agent["Authorization"][:-4] + "AAAA"}
    assert live.client.get(f"/api/agent/runs/{live.agent_run}", headers=forged).status_code == 401
    assert live.client.get(f"/api/evals/runs/{live.agent_run}", headers={}).status_code == 401


def test_a_key_is_looked_up_in_one_statement_without_a_transaction(engine: Engine) -> None:
    """The lookup runs before every agent request: one SELECT, on PostgreSQL on a connection
    in autocommit, so the driver sends no BEGIN and ROLLBACK around it."""
    key = key_headers(engine, "agent-alpha", "buyer")["Authorization"].removeprefix("Bearer ")

    with statements_sent(engine) as sent:
        found = agent_of_key(engine, key)
        with pytest.raises(AuthError):
            agent_of_key(engine, key[:-1] + ("x" if key[-1] != "x" else "y"))

    assert (found.agent_id, found.seat) == ("agent-alpha", "buyer")
    assert [s.word for s in sent] == ["SELECT", "SELECT"]
    if engine.dialect.name == "postgresql":
        assert [s.autocommit for s in sent] == [True, True]


#: An Authorization header's text and the token both parsers read from it: the scheme in any
#: case, one space after it, the token stripped; no space after the scheme is no bearer token.
BEARER_HEADERS = [
    ("Bearer ik_live_abc", "ik_live_abc"),
    ("bearer ik_live_abc", "ik_live_abc"),
    ("BEARER ik_live_abc", "ik_live_abc"),
    ("Bearer   ik_live_abc  ", "ik_live_abc"),
    ("Bearerik_live_abc", ""),
    ("Bearer", ""),
    ("Basic ik_live_abc", ""),
    ("", ""),
]


@pytest.mark.parametrize(("authorization", "token"), BEARER_HEADERS)
def test_the_guard_and_the_ingest_seam_read_a_bearer_header_alike(
    authorization: str, token: str
) -> None:
    assert bearer_of(authorization) == token
    assert bearer_token({b"authorization": authorization.encode("latin-1")}) == token
    assert ingest_token({"authorization": authorization}) == (token or None)
