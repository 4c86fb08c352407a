"""Every error answer is ``{"code", "detail"}`` with the stable code of its status, whoever
sends it: a route, FastAPI's validation, the request guard or Starlette's routing."""

from __future__ import annotations

from datetime import UTC, datetime

from judge.server.api.errors import CODES, ErrorPublic, error_body, seconds_to_utc_midnight
from tests.server.api.conftest import Live, example


def _shape(response_json: object) -> ErrorPublic:
    return ErrorPublic.model_validate(response_json, strict=True)


def test_each_error_status_has_one_stable_code() -> None:
    assert (
        CODES[401] == "unauthenticated"
        and CODES[404] == "not_found"
        and CODES[422] == "invalid_request"
    )
    assert error_body(409, "taken") == {"code": "conflict", "detail": "taken"}
    assert len(set(CODES.values())) == len(CODES)


def test_a_missing_run_answers_not_found_with_a_message(live: Live) -> None:
    response = live.client.get("/api/evals/runs/nope", headers=live.owner)

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "run 'nope' not found"}


def test_a_refused_credential_answers_unauthenticated(live: Live) -> None:
    response = live.client.get("/api/evals/runs/nope", headers={"Authorization": "Bearer forged"})

    assert (response.status_code, _shape(response.json()).code) == (401, "unauthenticated")


def test_a_request_that_fails_validation_answers_one_message_naming_the_field(live: Live) -> None:
    response = live.client.post(
        "/api/evals/submissions", json={"submission_id": "s"}, headers=live.owner
    )

    assert response.status_code == 422
    body = _shape(response.json())
    assert body.code == "invalid_request" and "body.scenario_id" in body.detail


def test_a_run_body_that_fails_validation_answers_the_same_shape(live: Live) -> None:
    response = live.client.post(
        "/api/evals/runs", json=example("haggle", seats="none"), headers=live.owner
    )

    assert response.status_code == 422 and _shape(response.json()).detail.startswith("body.seats")


def test_the_request_guard_refusals_carry_a_code(live: Live) -> None:
    bad_path = live.client.get("/api/evals/runs/a%20b", headers=live.owner)
    anonymous = live.client.post("/api/evals/runs", json={})

    assert (bad_path.status_code, _shape(bad_path.json()).code) == (422, "invalid_request")
    assert (anonymous.status_code, _shape(anonymous.json()).code) == (401, "unauthenticated")


def test_a_conflict_answers_conflict(live: Live) -> None:
    body = {
        "submission_id": "dup-1",
        "scenario_id": "market-haggle",
        "agent_id": "agent-alpha",
        "run_ids": [],
    }
    assert (
        live.client.post("/api/evals/submissions", json=body, headers=live.owner).status_code == 201
    )
    again = live.client.post("/api/evals/submissions", json=body, headers=live.owner)

    assert (again.status_code, _shape(again.json()).code) == (409, "conflict")


def test_unknown_routes_and_methods_answer_in_the_same_shape(live: Live) -> None:
    missing = live.client.get("/api/nothing-here", headers=live.owner)
    method = live.client.delete("/api/health", headers=live.owner)

    assert (missing.status_code, _shape(missing.json()).code) == (404, "not_found")
    assert (method.status_code, _shape(method.json()).code) == (405, "method_not_allowed")


def test_an_attempt_number_too_large_to_store_answers_422_not_a_store_error(live: Live) -> None:
    response = live.client.get("/api/evals/list-1/scorecards/6708308729197", headers=live.owner)

    assert response.status_code == 422 and response.json()["detail"].startswith("path.attempt:")


def test_a_daily_budget_refusal_is_retried_after_the_seconds_left_in_the_utc_day() -> None:
    assert seconds_to_utc_midnight(datetime(2026, 12, 4, 23, 59, 30, tzinfo=UTC)) == 30
    assert seconds_to_utc_midnight(datetime(2026, 12, 4, 0, 0, 0, tzinfo=UTC)) == 86_400
