"""The published OpenAPI: every route documented, with its response model and auth scheme."""

from __future__ import annotations

import re
from typing import Any

import pytest

from judge.engine.settings import load_settings
from judge.server.api.routers.eras import list_eras
from judge.server.web import create_app

MINE = {
    ("post", "/api/agent/runs"): "AgentKey",
    ("post", "/api/evals/runs"): "OwnerToken",
    ("get", "/api/agent/runs/{run_id}"): "AgentKey",
    ("get", "/api/evals/runs/{run_id}"): "OwnerToken",
    ("get", "/api/agent/runs/{run_id}/scorecard"): "AgentKey",
    ("get", "/api/evals/{run_id}/scorecard"): "OwnerToken",
    ("get", "/api/evals/{run_id}/metrics"): "OwnerToken",
    ("get", "/api/evals/rubrics"): "OwnerToken",
    ("post", "/api/evals/rubrics"): "OwnerToken",
    ("get", "/api/evals/rubrics/{trait}"): "OwnerToken",
    ("put", "/api/evals/rubrics/{trait}"): "OwnerToken",
    ("delete", "/api/evals/rubrics/{trait}"): "OwnerToken",
    ("get", "/api/evals/config"): "OwnerToken",
    ("get", "/api/evals/config/{key}"): "OwnerToken",
    ("put", "/api/evals/config/{key}"): "OwnerToken",
    ("get", "/api/evals/config/{key}/audit"): "OwnerToken",
    ("get", "/api/evals/eras"): "OwnerToken",
}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    app = create_app(load_settings(dev_mode=True, database_url="sqlite:///:memory:"))
    return app.openapi()


@pytest.mark.parametrize(("method", "path"), sorted(MINE))
def test_each_route_is_documented_with_model_and_auth(
    spec: dict[str, Any], method: str, path: str
) -> None:
    operation = spec["paths"][path][method]
    success = next(code for code in operation["responses"] if code.startswith("2"))

    assert operation["summary"] and len(operation["description"]) > 30
    assert operation["security"] == [{MINE[method, path]: []}]
    assert "$ref" in str(operation["responses"][success]["content"]["application/json"]["schema"])
    assert operation["responses"]["401"]["description"].startswith("Missing, malformed")


def test_both_bearer_schemes_are_published(spec: dict[str, Any]) -> None:
    schemes = spec["components"]["securitySchemes"]

    assert schemes["AgentKey"]["scheme"] == schemes["OwnerToken"]["scheme"] == "bearer"
    assert schemes["OwnerToken"]["bearerFormat"] == "JWT"


def test_the_agent_scorecard_model_has_no_safety_block(spec: dict[str, Any]) -> None:
    seat = spec["components"]["schemas"]["AgentSeatScorecard"]["properties"]

    assert "safety_block" not in seat and "traits" in seat


def test_the_agent_scorecard_model_says_only_whether_the_run_is_held(
    spec: dict[str, Any],
) -> None:
    schemas = spec["components"]["schemas"]
    card, seat = schemas["AgentScorecardPublic"]["properties"], schemas["AgentSeatScorecard"]

    assert card["held_for_review"]["type"] == "boolean"
    assert "tamper" not in seat["properties"] and "tamper" not in card


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m, p, op) for p, methods in spec["paths"].items() for m, op in methods.items()]


def test_every_operation_is_described_in_prose_without_empty_paragraphs(
    spec: dict[str, Any],
) -> None:
    undescribed = [
        (method, path)
        for method, path, operation in _operations(spec)
        if len(operation.get("description", "")) <= 30
        or "\n\n\n" in operation["description"]
        or operation["description"] != operation["description"].strip()
    ]

    assert undescribed == []


def test_a_handler_docstring_is_published_as_its_operation_description(
    spec: dict[str, Any],
) -> None:
    published = spec["paths"]["/api/evals/eras"]["get"]["description"]

    assert list_eras.__doc__ is not None
    assert published.split() == list_eras.__doc__.split()
    assert published.startswith("Each era: the judge model, prompt version, rubric hashes")


def test_no_wrapped_description_line_starts_a_markdown_block(spec: dict[str, Any]) -> None:
    # a docstring wraps wherever a word ends; Swagger UI reads a line that opens with a list,
    # quote or heading marker as that block instead of as the paragraph going on
    block = re.compile(r"\s*([-*+>#]\s|\d+[.)]\s)")
    broken = [
        (method, path, line)
        for method, path, operation in _operations(spec)
        for line in operation.get("description", "").split("\n")[1:]
        if block.match(line)
    ]

    assert broken == []
