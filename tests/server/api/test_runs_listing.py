"""Runs over HTTP: the Location of an accepted run, and the runs list with filters and keyset
paging for owners and for agent keys."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from tests.server.api.conftest import OWNER_RUNS, Live, example


def _ids(live: Live, url: str, headers: dict[str, str]) -> list[str]:
    response = live.client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    return [run["run_id"] for run in response.json()]


def _next(link: str | None) -> str | None:
    match = re.fullmatch(r'<([^>]+)>; rel="next"', link or "")
    return match.group(1) if match else None


def test_an_accepted_run_answers_202_with_its_status_url_as_location(live: Live) -> None:
    accepted = live.client.post(
        "/api/evals/runs", json=example("haggle", run_id="located-1"), headers=live.owner
    )
    again = live.client.post(
        "/api/evals/runs", json=example("haggle", run_id="located-1"), headers=live.owner
    )

    assert accepted.status_code == 202
    assert (
        accepted.headers["location"] == "/api/evals/runs/located-1" == accepted.json()["status_url"]
    )
    assert (
        live.client.get(accepted.headers["location"], headers=live.owner).json()["run_id"]
        == "located-1"
    )
    assert again.status_code == 200 and "location" not in again.headers


def test_an_agent_run_is_located_under_the_agent_routes(live: Live) -> None:
    accepted = live.client.post(
        "/api/agent/runs", json=example("haggle", run_id="located-2"), headers=live.agent
    )

    assert accepted.status_code == 202
    assert accepted.headers["location"] == "/api/agent/runs/agent-alpha:located-2"


def test_the_owner_lists_every_run_newest_first(live: Live) -> None:
    ids = _ids(live, "/api/evals/runs?limit=200", live.owner)

    assert [i for i in ids if i in OWNER_RUNS] == list(reversed(OWNER_RUNS))
    assert live.agent_run in ids


def test_the_runs_list_pages_by_cursor_without_repeating_or_skipping(live: Live) -> None:
    everything = _ids(live, "/api/evals/runs?limit=200", live.owner)
    seen: list[str] = []
    url: str | None = "/api/evals/runs?limit=2"
    pages = 0
    while url is not None:
        response = live.client.get(url, headers=live.owner)
        assert response.status_code == 200 and len(response.json()) <= 2
        seen += [run["run_id"] for run in response.json()]
        url, pages = _next(response.headers.get("link")), pages + 1

    assert seen == everything and pages == -(-len(everything) // 2)


def test_a_page_does_not_shift_when_a_newer_run_arrives(live: Live) -> None:
    first = live.client.get("/api/evals/runs?limit=1&scenario=market-haggle", headers=live.owner)
    live.client.post(
        "/api/evals/runs", json=example("haggle", run_id="arrived-later"), headers=live.owner
    )
    second = live.client.get(_next(first.headers["link"]) or "", headers=live.owner)

    assert second.json()[0]["run_id"] not in {first.json()[0]["run_id"], "arrived-later"}


def test_the_runs_list_filters_by_status_scenario_agent_and_time(live: Live) -> None:
    later = (datetime.now(UTC) + timedelta(days=1)).isoformat()

    assert set(OWNER_RUNS) <= set(_ids(live, "/api/evals/runs?status=scored&limit=200", live.owner))
    assert _ids(live, "/api/evals/runs?status=not_scored", live.owner) == []
    assert _ids(live, "/api/evals/runs?scenario=no-such-scenario", live.owner) == []
    assert set(OWNER_RUNS) <= set(
        _ids(live, "/api/evals/runs?agent=agent-alpha&limit=200", live.owner)
    )
    assert _ids(live, "/api/evals/runs?agent=nobody", live.owner) == []
    assert _ids(live, f"/api/evals/runs?since={later.replace('+', '%2B')}", live.owner) == []
    assert set(OWNER_RUNS) <= set(
        _ids(live, f"/api/evals/runs?until={later.replace('+', '%2B')}&limit=200", live.owner)
    )


def test_the_runs_list_filters_by_era(live: Live) -> None:
    era = live.client.get("/api/evals/runs?limit=1&status=scored", headers=live.owner).json()[0][
        "measurement_era"
    ]

    assert set(OWNER_RUNS) <= set(_ids(live, f"/api/evals/runs?era={era}&limit=200", live.owner))
    assert _ids(live, "/api/evals/runs?era=no-such-era", live.owner) == []


def test_an_agent_key_lists_only_its_own_self_reported_runs(live: Live) -> None:
    ids = _ids(live, "/api/agent/runs?limit=200", live.agent)

    assert live.agent_run in ids
    assert all(i.startswith("agent-alpha:") for i in ids)
    assert not set(OWNER_RUNS) & set(ids)  # alpha sits in them, but the platform recorded them
    assert _ids(live, "/api/agent/runs?agent=agent-beta", live.agent) == []


def test_each_runs_list_refuses_the_other_credential(live: Live) -> None:
    assert live.client.get("/api/agent/runs", headers=live.owner).status_code == 401
    assert live.client.get("/api/evals/runs", headers=live.agent).status_code == 401


def test_a_bad_cursor_or_limit_answers_422_naming_it(live: Live) -> None:
    cursor = live.client.get("/api/evals/runs?cursor=not-a-cursor", headers=live.owner)
    limit = live.client.get("/api/evals/runs?limit=201", headers=live.owner)
    status = live.client.get("/api/evals/runs?status=lost", headers=live.owner)

    assert (cursor.status_code, cursor.json()["code"]) == (422, "invalid_request")
    assert cursor.json()["detail"].startswith("cursor:")
    assert limit.status_code == 422 and limit.json()["detail"].startswith("query.limit:")
    assert status.status_code == 422 and status.json()["detail"].startswith("query.status:")


def _at_offset(when: str, hours: int) -> str:
    """The same instant written in another zone, escaped for a query string."""
    zone = timezone(timedelta(hours=hours))
    return datetime.fromisoformat(when).astimezone(zone).isoformat().replace("+", "%2B")


def test_since_with_a_zone_offset_is_the_same_instant_as_in_utc(live: Live) -> None:
    rows = live.client.get("/api/evals/runs?limit=200", headers=live.owner).json()
    oldest = min(rows, key=lambda r: r["created_at"])["created_at"]

    in_utc = _ids(live, f"/api/evals/runs?limit=200&since={_at_offset(oldest, 0)}", live.owner)
    east = _ids(live, f"/api/evals/runs?limit=200&since={_at_offset(oldest, 8)}", live.owner)
    west = _ids(live, f"/api/evals/runs?limit=200&since={_at_offset(oldest, -5)}", live.owner)

    assert len(in_utc) == len(rows) and east == in_utc == west


def test_until_with_a_zone_offset_is_the_same_instant_as_in_utc(live: Live) -> None:
    rows = live.client.get("/api/evals/runs?limit=200", headers=live.owner).json()
    newest = max(rows, key=lambda r: r["created_at"])

    until = _at_offset(newest["created_at"], 8)
    east = _ids(live, f"/api/evals/runs?limit=200&until={until}", live.owner)

    assert len(east) == len(rows) - 1 and newest["run_id"] not in east
