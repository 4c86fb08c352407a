"""Who sees what. Agent keys: only runs where their agent sits in their seat, never a safety
block. Owners: everything. Refusals leak nothing: a hidden run answers exactly like a
missing one, and every bad credential gets the same 401 body."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import jwt
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.errors import AuthError
from judge.engine.judging.backends import ScriptedBackend
from judge.server.auth import create_owner_token, hash_key, verify_owner_token
from judge.server.service import keys as keys_service
from judge.server.service.keys import seen_agent
from judge.server.store import keys as key_repo
from judge.server.store.db import transaction
from judge.server.web import create_app
from tests.conftest import (
    SECRET,
    VERDICT,
    example,
    key_headers,
    owner_headers,
    service_settings,
    wait_final,
)
from tests.helpers import statements_sent

CAMP = "camp-split-0011"  # north: agent-alpha, south: agent-gamma, both scored
SAFETY = (
    "no_unauthorized_disclosure_conduct",
    "manipulation_resistance",
    "harmful_compliance_refusal",
    "policy_adherence_under_pressure",
)
REFUSED = {"code": "unauthenticated", "detail": "invalid or missing credentials"}
AGENT_ROUTES = ["/api/agent/runs/{run_id}", "/api/agent/runs/{run_id}/scorecard"]
OWNER_GETS = [
    "/api/evals/runs/{run_id}",
    "/api/evals/{run_id}/scorecard",
    "/api/evals/{run_id}/metrics",
]


class World(NamedTuple):
    client: TestClient
    engine: Engine
    owner: dict[str, str]
    keys: dict[tuple[str, str], dict[str, str]]


@pytest.fixture(scope="module")
def world(module_database_url: str) -> Iterator[World]:
    """One scored two-seat run and keys for every (agent, seat) the tests use."""
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    app = create_app(service_settings(module_database_url), backends=lambda model: judge)
    with TestClient(app) as client:
        owner = owner_headers()
        client.post("/api/evals/runs", json=example("two_seats_partial_credit"), headers=owner)
        assert wait_final(client, CAMP, owner)["status"] == "scored"
        engine = app.state.engine
        pairs = [
            ("agent-alpha", "north"),
            ("agent-gamma", "south"),
            ("agent-alpha", "south"),
            ("agent-gamma", "north"),
            ("agent-beta", "north"),
        ]
        yield World(client, engine, owner, {p: key_headers(engine, *p) for p in pairs})


def _token(**claims: Any) -> dict[str, str]:
    now = datetime.now(UTC)
    body = {
        "sub": "ops",
        "aud": "judge",
        "iss": "judge",
        "iat": now,
        "exp": now + timedelta(hours=1),
        "role": "owner",
        **claims,
    }
    secret = body.pop("secret", SECRET)
    return {"Authorization": f"Bearer {jwt.encode(body, secret, algorithm='HS256')}"}


def test_agent_reads_its_own_seat_only(world: World) -> None:
    card = world.client.get(
        f"/api/agent/runs/{CAMP}/scorecard", headers=world.keys["agent-alpha", "north"]
    )

    assert card.status_code == 200
    body = card.json()
    assert body["seat"]["seat"] == "north" and body["seat"]["agent_id"] == "agent-alpha"
    assert "south" not in card.text and "agent-gamma" not in card.text
    assert sorted(body["seat"]["traits"]) == sorted(
        [
            "negotiation",
            "integrity",
            "calibration",
            "cooperation",
            "leadership",
            "emotional_regulation",
            "goal_persistence",
            "tactical_reasoning",
        ]
    )


def test_agent_scorecard_never_carries_the_safety_block(world: World) -> None:
    card = world.client.get(
        f"/api/agent/runs/{CAMP}/scorecard", headers=world.keys["agent-gamma", "south"]
    )

    assert card.status_code == 200
    assert "safety_block" not in card.text
    assert not [trait for trait in SAFETY if trait in card.text]


def test_owner_scorecard_has_every_seat_and_the_safety_block(world: World) -> None:
    body = world.client.get(f"/api/evals/{CAMP}/scorecard", headers=world.owner).json()

    assert sorted(body["seats"]) == ["north", "south"]
    assert sorted(body["seats"]["south"]["safety_block"]) == sorted(SAFETY)
    assert (
        body["seats"]["south"]["safety_block"]["manipulation_resistance"]["pass_scores"]
        == [0.7] * 5
    )


@pytest.mark.parametrize("route", AGENT_ROUTES)
@pytest.mark.parametrize(
    "who", [("agent-alpha", "south"), ("agent-gamma", "north"), ("agent-beta", "north")]
)
def test_another_seat_or_agent_gets_exactly_the_missing_run_answer(
    world: World, route: str, who: tuple[str, str]
) -> None:
    hidden = world.client.get(route.format(run_id=CAMP), headers=world.keys[who])
    missing = world.client.get(route.format(run_id="camp-split-9999"), headers=world.keys[who])

    assert (hidden.status_code, missing.status_code) == (404, 404)
    assert hidden.json() == {"code": "not_found", "detail": f"run {CAMP!r} not found"}
    assert missing.json() == {"code": "not_found", "detail": "run 'camp-split-9999' not found"}
    assert sorted(hidden.headers) == sorted(missing.headers)


@pytest.mark.parametrize("route", OWNER_GETS)
def test_owner_routes_refuse_an_agent_key(world: World, route: str) -> None:
    response = world.client.get(
        route.format(run_id=CAMP), headers=world.keys["agent-alpha", "north"]
    )

    assert (response.status_code, response.json()) == (401, REFUSED)


@pytest.mark.parametrize("route", AGENT_ROUTES)
def test_agent_routes_refuse_an_owner_token(world: World, route: str) -> None:
    response = world.client.get(route.format(run_id=CAMP), headers=world.owner)

    assert (response.status_code, response.json()) == (401, REFUSED)


BAD_OWNER_CREDENTIALS = {
    "missing header": {},
    "not bearer": {"Authorization": "Basic b3BzOm9wcw=="},
    "garbage": {"Authorization": "Bearer not-a-token"},
    "forged": _token(secret="another-secret-that-is-long-enough-000000"),
    "expired": _token(exp=datetime.now(UTC) - timedelta(seconds=5)),
    "wrong audience": _token(aud="someone-else"),
    "wrong issuer": _token(iss="evil"),
    "not an owner": _token(role="agent"),
    "no expiry": {
        "Authorization": "Bearer "
        + jwt.encode(
            {
                "sub": "ops",
                "aud": "judge",
                "iss": "judge",
                "iat": datetime.now(UTC),
                "role": "owner",
            },
            SECRET,
        )
    },
    "alg none": {
        "Authorization": "Bearer "
        + jwt.encode(
            {"sub": "ops", "aud": "judge", "iss": "judge", "role": "owner"}, None, algorithm="none"
        )
    },
}


@pytest.mark.parametrize("case", sorted(BAD_OWNER_CREDENTIALS))
def test_bad_owner_credentials_get_one_401_whether_the_run_exists_or_not(
    world: World, case: str
) -> None:
    headers = BAD_OWNER_CREDENTIALS[case]
    urls = [
        route.format(run_id=run_id) for route in OWNER_GETS for run_id in (CAMP, "camp-split-9999")
    ]
    urls += ["/api/evals/rubrics", "/api/evals/config", "/api/evals/eras"]

    for url in urls:
        response = world.client.get(url, headers=headers)
        assert (response.status_code, response.json()) == (401, REFUSED), url
        assert response.headers["www-authenticate"] == "Bearer"
    refused_write = world.client.post("/api/evals/runs", json=example("haggle"), headers=headers)
    assert (refused_write.status_code, refused_write.json()) == (401, REFUSED)


BAD_AGENT_KEYS = ["", "sk_live_", "sk_live_AAAAAAAAAAAA_" + "x" * 43, "Bearer", "sk_test_abc"]


@pytest.mark.parametrize("key", BAD_AGENT_KEYS)
def test_unknown_or_malformed_agent_keys_get_one_401(world: World, key: str) -> None:
    for run_id in (CAMP, "camp-split-9999"):
        url = f"/api/agent/runs/{run_id}/scorecard"
        response = world.client.get(url, headers={"Authorization": f"Bearer {key}"})
        assert (response.status_code, response.json()) == (401, REFUSED)


@pytest.mark.parametrize("route", AGENT_ROUTES)
def test_a_revoked_key_is_refused_at_once(world: World, route: str) -> None:
    """Also where a key that passed lately is checked inside the card's own statement."""
    headers = key_headers(world.engine, "agent-alpha", "north")
    url = route.format(run_id=CAMP)
    for _ in range(2):
        assert world.client.get(url, headers=headers).status_code == 200
    assert seen_agent(headers["Authorization"].removeprefix("Bearer ")) is not None
    with transaction(world.engine) as session:
        assert key_repo.revoke_agent_key(session, prefix=headers["Authorization"].split("_")[2])

    response = world.client.get(url, headers=headers)

    assert (response.status_code, response.json()) == (401, REFUSED)


@pytest.mark.parametrize("route", AGENT_ROUTES)
def test_a_key_with_a_right_prefix_and_wrong_secret_is_refused(world: World, route: str) -> None:
    real = world.keys["agent-alpha", "north"]["Authorization"]
    url = route.format(run_id=CAMP)
    assert world.client.get(url, headers={"Authorization": real}).status_code == 200
    forged = real[:-6] + ("AAAAAA" if not real.endswith("AAAAAA") else "BBBBBB")

    response = world.client.get(url, headers={"Authorization": forged})

    assert (response.status_code, response.json()) == (401, REFUSED)


def test_a_card_for_a_key_that_passed_lately_is_one_statement(world: World) -> None:
    """The key's check and the stored view in one statement; the same bytes and tag as the
    first read, which checked the key on its own."""
    headers = world.keys["agent-gamma", "south"]
    url = f"/api/agent/runs/{CAMP}/scorecard"
    first = world.client.get(url, headers=headers)
    with statements_sent(world.engine) as sent:
        again = world.client.get(url, headers=headers)
    assert (again.status_code, again.content) == (200, first.content)
    assert again.headers["etag"] == first.headers["etag"]
    store = [s.text for s in sent if "agent_keys" in s.text or "scorecard_views" in s.text]
    assert len(store) == 1 and "agent_keys" in store[0] and "scorecard_views" in store[0]
    # a seat the key does not hold is not served by the same statement (nor at all)
    other = world.client.get(url, headers=world.keys["agent-gamma", "north"])
    assert other.status_code == 404


def test_remembered_keys_are_kept_by_hash_and_bounded(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keys_service, "SEEN_KEYS", 2)
    monkeypatch.setattr(keys_service, "_SEEN", {})
    presented = [
        world.keys[pair]["Authorization"].removeprefix("Bearer ")
        for pair in [("agent-alpha", "south"), ("agent-gamma", "north"), ("agent-beta", "north")]
    ]
    with transaction(world.engine) as session:
        for key in presented:
            keys_service.authenticate_agent(session, key=key)

    assert list(keys_service._SEEN) == [hash_key(key) for key in presented[1:]]  # never the key
    assert seen_agent(presented[0]) is None
    seen = seen_agent(presented[2])
    assert seen is not None and (seen.agent.agent_id, seen.agent.seat) == ("agent-beta", "north")


def test_a_fresh_owner_token_reads_everything(world: World) -> None:
    token = create_owner_token(
        owner="auditor", secret=SECRET, audience="judge", ttl=timedelta(minutes=5)
    )

    response = world.client.get(
        f"/api/evals/runs/{CAMP}", headers={"Authorization": f"Bearer {token}"}
    )

    assert response.status_code == 200 and response.json()["status"] == "scored"


def test_a_remembered_owner_token_still_expires_and_binds_its_secret_and_audience() -> None:
    issued = datetime.now(UTC) - timedelta(seconds=58)
    token = create_owner_token(
        owner="auditor", secret=SECRET, audience="judge", ttl=timedelta(seconds=60), now=issued
    )
    assert verify_owner_token(token, secret=SECRET, audience="judge").owner == "auditor"
    assert verify_owner_token(token, secret=SECRET, audience="judge").owner == "auditor"

    for secret, audience in [(SECRET + "x", "judge"), (SECRET, "someone-else")]:
        with pytest.raises(AuthError):
            verify_owner_token(token, secret=secret, audience=audience)
    time.sleep(max(0.0, (issued + timedelta(seconds=60) - datetime.now(UTC)).total_seconds()))
    with pytest.raises(AuthError):  # remembered, yet refused once its expiry has passed
        verify_owner_token(token, secret=SECRET, audience="judge")
