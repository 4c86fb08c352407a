"""The service-logic routes are documented: summary, description, auth scheme, response schema."""

from __future__ import annotations

from tests.scripted_service import Service

ROUTES = {
    ("post", "/api/evals/submissions"): ["OwnerToken"],
    ("post", "/api/agent/submissions/{submission_id}/finalize"): ["AgentKey"],
    ("get", "/api/leaderboards/{scenario_id}"): ["OwnerToken", "AgentKey"],
    ("get", "/api/evals/stability/{scenario_id}"): ["OwnerToken"],
    ("get", "/api/agent/stability/{scenario_id}"): ["AgentKey"],
    ("get", "/api/evals/{run_id}/trajectory"): ["OwnerToken"],
    ("get", "/api/agent/runs/{run_id}/trajectory"): ["AgentKey"],
    ("get", "/api/agent/runs/{run_id}/coaching"): ["AgentKey"],
}


def test_each_route_names_its_credentials_and_documents_its_answer(svc: Service) -> None:
    spec = svc.client.get("/openapi.json").json()
    for (method, path), schemes in ROUTES.items():
        op = spec["paths"][path][method]
        assert op["summary"] and op["description"], path
        assert sorted(k for s in op["security"] for k in s) == sorted(schemes), path
        assert op["responses"]["401"]["content"]["application/json"]["schema"], path
        ok = op["responses"].get("200") or op["responses"]["201"]
        assert ok["content"], path


def test_the_export_documents_its_jsonl_body(svc: Service) -> None:
    op = svc.client.get("/openapi.json").json()["paths"]["/api/evals/{run_id}/trajectory"]["get"]
    ref = op["responses"]["200"]["content"]["application/x-ndjson"]["schema"]["$ref"]
    schema = svc.client.get("/openapi.json").json()["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert {"reward", "components", "done", "action"} <= set(schema["properties"])
