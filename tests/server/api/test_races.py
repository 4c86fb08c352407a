"""Requests that race for the same thing, against a real server on loopback, on both stores:
exactly one wins, the others get a 409 (never a 500), and versions never repeat."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import httpx
from sqlalchemy.engine import Engine

from judge.server.store import rubrics as rubric_repo
from judge.server.store.db import transaction
from tests.conftest import example, key_headers, owner_headers

TEXTS = {
    "definition": "how well the participant trades value for value in a deal",
    "anchor_0": "concedes everything at once",
    "anchor_5": "trades some value, drifts at times",
    "anchor_1": "every concession bought with value",
}


async def _all(
    requests: list[tuple[str, str, dict[str, Any], dict[str, str]]], base: str
) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        return list(
            await asyncio.gather(
                *(client.request(m, p, json=b, headers=h) for m, p, b, h in requests)
            )
        )


def _scored_run(base: str, run_id: str) -> None:
    owner = owner_headers()
    assert (
        httpx.post(
            f"{base}/api/evals/runs", json=example("haggle", run_id=run_id), headers=owner
        ).status_code
        == 202
    )
    deadline = time.monotonic() + 60
    while httpx.get(f"{base}/api/evals/runs/{run_id}", headers=owner).json()["status"] != "scored":
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_concurrent_finalizations_give_exactly_one_200_and_409_for_the_rest(
    base_url: str, engine: Engine
) -> None:
    owner, alpha = owner_headers(), key_headers(engine, "agent-alpha", "buyer")
    _scored_run(base_url, "r1")
    body = {
        "submission_id": "s1",
        "scenario_id": "market-haggle",
        "agent_id": "agent-alpha",
        "run_ids": ["r1"],
    }
    assert (
        httpx.post(f"{base_url}/api/evals/submissions", json=body, headers=owner).status_code == 201
    )

    answers = asyncio.run(
        _all(
            [("POST", "/api/agent/submissions/s1/finalize", {"visibility": "public"}, alpha)] * 5
            + [("POST", "/api/evals/submissions/s1/finalize", {"visibility": "unlisted"}, owner)]
            * 5,
            base_url,
        )
    )

    assert Counter(a.status_code for a in answers) == {200: 1, 409: 9}
    winner = next(a.json() for a in answers if a.status_code == 200)
    stored = httpx.get(f"{base_url}/api/evals/submissions/s1", headers=owner).json()
    assert (
        stored["visibility"] == winner["visibility"]
        and stored["finalized_at"] == winner["finalized_at"]
    )


def test_twelve_creates_of_one_submission_id_give_one_201_and_eleven_409(base_url: str) -> None:
    owner = owner_headers()
    body = {"submission_id": "same", "scenario_id": "market-haggle", "agent_id": "agent-alpha"}

    answers = asyncio.run(_all([("POST", "/api/evals/submissions", body, owner)] * 12, base_url))

    assert Counter(a.status_code for a in answers) == {201: 1, 409: 11}
    assert all("already exists" in a.json()["detail"] for a in answers if a.status_code == 409)


def test_racing_rubric_creates_leave_one_live_rubric(base_url: str, engine: Engine) -> None:
    body = {"trait": "negotiation", **TEXTS}

    answers = asyncio.run(
        _all([("POST", "/api/evals/rubrics", body, owner_headers())] * 8, base_url)
    )

    assert Counter(a.status_code for a in answers) == {201: 1, 409: 7}
    with transaction(engine) as session:
        assert [r.version for r in rubric_repo.rubric_versions(session, trait="negotiation")] == [1]


def test_concurrent_rubric_updates_each_get_their_own_version(base_url: str) -> None:
    owner = owner_headers()
    assert (
        httpx.post(
            f"{base_url}/api/evals/rubrics", json={"trait": "negotiation", **TEXTS}, headers=owner
        ).status_code
        == 201
    )
    bodies = [{**TEXTS, "anchor_5": f"trades some value, variant {n}"} for n in range(8)]

    answers = asyncio.run(
        _all([("PUT", "/api/evals/rubrics/negotiation", b, owner) for b in bodies], base_url)
    )

    assert [a.status_code for a in answers] == [200] * 8
    assert sorted(a.json()["version"] for a in answers) == list(range(2, 10))


def test_concurrent_config_updates_get_distinct_versions_and_one_audit_record_each(
    base_url: str,
) -> None:
    owner = owner_headers()
    values = [
        {"value": {"min_player_messages": n, "min_actions_per_turn": 0.3}} for n in range(1, 9)
    ]

    answers = asyncio.run(
        _all(
            [("PUT", "/api/evals/config/academy_eval_participation", v, owner) for v in values],
            base_url,
        )
    )

    assert [a.status_code for a in answers] == [200] * 8
    assert sorted(a.json()["version"] for a in answers) == list(range(1, 9)), [
        a.json() for a in answers
    ]
    audit = httpx.get(
        f"{base_url}/api/evals/config/academy_eval_participation/audit", headers=owner
    ).json()
    assert len(audit) == 8
