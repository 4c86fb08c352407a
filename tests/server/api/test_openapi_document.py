"""The published OpenAPI 3.1 document is valid, documents errors as they are sent, and the
/docs page loads its assets from the service itself (no CDN)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openapi_spec_validator import validate

from judge.engine.settings import load_settings
from judge.server.api.openapi import DOCS_ASSETS
from judge.server.web import create_app

ERROR_REF = "#/components/schemas/ErrorPublic"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(load_settings(dev_mode=True, database_url="sqlite:///:memory:")))


@pytest.fixture(scope="module")
def spec(client: TestClient) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/openapi.json").json()
    return answer


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, op)
        for path, methods in spec["paths"].items()
        for method, op in methods.items()
    ]


def test_the_document_is_valid_openapi_3_1(spec: dict[str, Any]) -> None:
    validate(spec)

    assert spec["openapi"].startswith("3.1")


def test_every_reference_resolves_to_a_published_component(spec: dict[str, Any]) -> None:
    refs = set(re.findall(r'"\$ref": "([^"]+)"', json.dumps(spec)))
    components = spec["components"]["schemas"]

    assert "$defs" not in json.dumps(spec)
    assert {"#/components/schemas/TrajectoryStep", "#/components/schemas/Run"} <= refs
    assert all(
        ref.removeprefix("#/components/schemas/") in components
        for ref in refs
        if "/schemas/" in ref
    )


def test_the_trajectory_lines_are_described_by_a_component(spec: dict[str, Any]) -> None:
    ndjson = spec["paths"]["/api/evals/{run_id}/trajectory"]["get"]["responses"]["200"]["content"]

    assert ndjson["application/x-ndjson"]["schema"] == {
        "$ref": "#/components/schemas/TrajectoryStep"
    }


def test_every_error_answer_is_documented_as_the_error_body(spec: dict[str, Any]) -> None:
    for method, path, operation in _operations(spec):
        errors = {
            code: answer for code, answer in operation["responses"].items() if code[0] in "45"
        }
        assert {"422", "429", "503"} <= set(errors), f"{method} {path}"
        for code, answer in errors.items():
            assert answer["content"]["application/json"]["schema"] == {"$ref": ERROR_REF}, (
                f"{method} {path} {code}"
            )


def test_422_is_documented_as_the_string_message_it_is_sent_as(spec: dict[str, Any]) -> None:
    error = spec["components"]["schemas"]["ErrorPublic"]

    assert (
        error["properties"]["detail"]["type"] == "string"
        and error["properties"]["code"]["type"] == "string"
    )
    assert set(error["required"]) == {"code", "detail"}
    assert "HTTPValidationError" not in spec["components"]["schemas"]


def test_routes_with_a_credential_or_a_body_document_401_and_bodies_413(
    spec: dict[str, Any],
) -> None:
    for method, path, operation in _operations(spec):
        if "security" in operation:
            assert "401" in operation["responses"], f"{method} {path}"
        if "requestBody" in operation:
            assert "413" in operation["responses"], f"{method} {path}"


def test_list_routes_take_limit_and_cursor_and_document_the_link_header(
    spec: dict[str, Any],
) -> None:
    lists = [
        (path, op)
        for _, path, op in _operations(spec)
        if op["responses"]
        .get("200", {})
        .get("content", {})
        .get("application/json", {})
        .get("schema", {})
        .get("type")
        == "array"
    ]

    assert {"/api/evals/runs", "/api/agent/runs", "/api/evals/eras", "/api/evals/config"} <= {
        p for p, _ in lists
    }
    for path, operation in lists:
        assert {"limit", "cursor"} <= {p["name"] for p in operation.get("parameters", [])}, path
        assert "Link" in operation["responses"]["200"]["headers"], path


def test_202_answers_document_their_location(spec: dict[str, Any]) -> None:
    for path in ("/api/evals/runs", "/api/agent/runs"):
        assert "Location" in spec["paths"][path]["post"]["responses"]["202"]["headers"]


def test_the_docs_page_loads_only_local_assets(client: TestClient) -> None:
    page = client.get("/docs")
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text) + re.findall(
        r"url: '([^']+)'", page.text
    )

    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    assert "https://" not in page.text and "http://" not in page.text
    assert sources and all(s.startswith("/") for s in sources), sources
    for name, media_type in DOCS_ASSETS.items():
        asset = client.get(f"/docs/static/{name}")
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(media_type)
        assert len(asset.content) > 500


def test_the_docs_assets_serve_only_the_listed_files(client: TestClient) -> None:
    assert client.get("/docs/static/index.html").status_code == 404


def test_redoc_and_the_oauth_redirect_page_are_not_served(client: TestClient) -> None:
    assert client.get("/redoc").status_code == 404
    assert client.get("/docs/oauth2-redirect").status_code == 404
