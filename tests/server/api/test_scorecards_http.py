"""Scorecards over HTTP: a weak ETag, 304 on If-None-Match, and gzip when the client asks."""

from __future__ import annotations

import gzip
from typing import Annotated, Any

import pytest
from fastapi import FastAPI, Header

from judge.server.api.caller import AgentDep, OwnerDep
from judge.server.api.routers.scorecards import IF_NONE_MATCH
from tests.server.api.conftest import OWNER_RUNS, Live

OWNER_CARD = f"/api/evals/{OWNER_RUNS[0]}/scorecard"


@pytest.fixture(scope="module")
def agent_card(live: Live) -> str:
    return f"/api/agent/runs/{live.agent_run}/scorecard"


def test_a_scorecard_carries_a_weak_etag_that_is_stable_across_reads(live: Live) -> None:
    first = live.client.get(OWNER_CARD, headers=live.owner)
    second = live.client.get(OWNER_CARD, headers=live.owner)

    assert first.status_code == 200 and first.headers["etag"].startswith('W/"')
    assert first.headers["etag"] == second.headers["etag"] and first.content == second.content


def test_if_none_match_with_the_current_etag_answers_304_without_a_body(
    live: Live, agent_card: str
) -> None:
    for url, headers in ((OWNER_CARD, live.owner), (agent_card, live.agent)):
        tag = live.client.get(url, headers=headers).headers["etag"]
        again = live.client.get(url, headers={**headers, "If-None-Match": tag})
        listed = live.client.get(
            url, headers={**headers, "If-None-Match": f'"other", {tag.removeprefix("W/")}'}
        )

        assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)
        assert listed.status_code == 304


def test_a_stale_etag_gets_the_whole_card(live: Live) -> None:
    stale = live.client.get(OWNER_CARD, headers={**live.owner, "If-None-Match": 'W/"0000"'})

    assert stale.status_code == 200 and stale.json()["run_id"] == OWNER_RUNS[0]


def test_the_etag_changes_when_the_card_does(live: Live) -> None:
    before = live.client.get(OWNER_CARD, headers=live.owner).headers["etag"]
    review = {"decision": "cleared", "note": "looked at it"}
    assert (
        live.client.post(
            f"/api/evals/{OWNER_RUNS[0]}/safety-review", json=review, headers=live.owner
        ).status_code
        == 201
    )
    after = live.client.get(OWNER_CARD, headers={**live.owner, "If-None-Match": before})

    assert after.status_code == 200 and after.headers["etag"] != before
    assert after.json()["safety_review"]["state"] == "cleared"


def test_the_owner_and_agent_cards_have_different_etags(live: Live, agent_card: str) -> None:
    owner_tag = live.client.get(
        f"/api/evals/{live.agent_run}/scorecard", headers=live.owner
    ).headers["etag"]
    agent_tag = live.client.get(agent_card, headers=live.agent).headers["etag"]

    assert owner_tag != agent_tag


def test_a_scorecard_is_gzipped_when_the_client_accepts_it(live: Live) -> None:
    plain = live.client.get(OWNER_CARD, headers={**live.owner, "Accept-Encoding": "identity"})
    raw = live.client.stream("GET", OWNER_CARD, headers={**live.owner, "Accept-Encoding": "gzip"})
    with raw as response:
        compressed = b"".join(response.iter_raw())
        encoding = response.headers.get("content-encoding")

    assert "content-encoding" not in plain.headers
    assert encoding == "gzip" and len(compressed) < len(plain.content) / 3
    assert gzip.decompress(compressed) == plain.content


@pytest.mark.parametrize("header", ["If-None-Match", "Accept-Encoding"])
def test_a_validator_header_over_1000_characters_is_refused_naming_it(
    live: Live, agent_card: str, header: str
) -> None:
    for url, headers in ((OWNER_CARD, live.owner), (agent_card, live.agent)):
        answer = live.client.get(url, headers={**headers, header: "x" * 1001})
        fits = live.client.get(url, headers={**headers, header: "x" * 1000})

        assert answer.status_code == 422 and fits.status_code == 200
        assert answer.json()["detail"] == (
            f"header.{header.lower()}: String should have at most 1000 characters"
        )


def test_a_bad_credential_is_refused_before_a_bad_header_is_read(
    live: Live, agent_card: str
) -> None:
    too_long = {"If-None-Match": "x" * 1001}
    for url, wrong in ((OWNER_CARD, live.agent), (agent_card, live.owner)):
        assert live.client.get(url, headers={**wrong, **too_long}).status_code == 401


IfNoneMatch = Annotated[str | None, Header(max_length=1000, description=IF_NONE_MATCH)]


def _twin_operations() -> dict[str, dict[str, Any]]:
    """The two card routes as FastAPI publishes them when declared with the credential
    dependency and the header parameter, as they were before they took the request alone."""
    twin = FastAPI()

    @twin.get("/owner/{run_id}")
    def owner(run_id: str, caller: OwnerDep, if_none_match: IfNoneMatch = None) -> None: ...

    @twin.get("/agent/{run_id}")
    def agent(run_id: str, caller: AgentDep, if_none_match: IfNoneMatch = None) -> None: ...

    paths = twin.openapi()["paths"]
    return {"owner": paths["/owner/{run_id}"]["get"], "agent": paths["/agent/{run_id}"]["get"]}


def test_the_card_routes_publish_the_credential_and_header_a_dependency_would(
    live: Live,
) -> None:
    published = live.client.get("/openapi.json").json()["paths"]
    twins = _twin_operations()
    for path, audience in (
        ("/api/evals/{run_id}/scorecard", "owner"),
        ("/api/agent/runs/{run_id}/scorecard", "agent"),
    ):
        operation, twin = published[path]["get"], twins[audience]
        assert operation["security"] == twin["security"]
        assert operation["parameters"] == twin["parameters"]
