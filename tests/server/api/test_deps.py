"""The routers' shared plumbing (judge/server/api/deps.py): an owner router admits an owner token
only, on every route, though its handlers name no credential; both kinds of router document
the 401 once for all their routes, each route adding only its own answers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import pytest
from fastapi.testclient import TestClient

from judge.server.api.deps import credentialed_router, owner_router
from judge.server.api.errors import error_responses
from judge.server.store.db import make_engine
from judge.server.web import create_app
from tests.conftest import key_headers, owner_headers, service_settings

router = owner_router("probes", responses=error_responses(422))


@router.get("/api/evals/probes/{probe_id}", summary="One probe", responses=error_responses(404))
def probe(probe_id: str) -> dict[str, str]:
    """A route of an owner router whose handler takes no credential of its own."""
    return {"probe_id": probe_id}


class Probed(NamedTuple):
    client: TestClient
    agent: dict[str, str]


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Probed]:
    url = f"sqlite:///{tmp_path_factory.mktemp('deps') / 'judge.db'}"
    app = create_app(service_settings(url))
    app.include_router(router)
    with TestClient(app) as client:
        engine = make_engine(url)
        yield Probed(client, key_headers(engine, "agent-alpha", "buyer"))
        engine.dispose()


def test_an_owner_router_answers_an_owner_token(probed: Probed) -> None:
    answer = probed.client.get("/api/evals/probes/p1", headers=owner_headers())

    assert answer.status_code == 200 and answer.json() == {"probe_id": "p1"}


def test_an_owner_router_refuses_an_agent_key_with_the_one_401_body(probed: Probed) -> None:
    answer = probed.client.get("/api/evals/probes/p1", headers=probed.agent)

    assert answer.status_code == 401
    assert answer.json() == {"code": "unauthenticated", "detail": "invalid or missing credentials"}


def test_an_owner_router_refuses_a_request_without_a_credential(probed: Probed) -> None:
    assert probed.client.get("/api/evals/probes/p1").status_code == 401


def test_the_route_publishes_the_owner_scheme_and_the_routers_answers_with_its_own(
    probed: Probed,
) -> None:
    operation = probed.client.get("/openapi.json").json()["paths"]["/api/evals/probes/{probe_id}"]

    answers = operation["get"]["responses"]

    assert operation["get"]["security"] == [{"OwnerToken": []}]
    assert answers["404"]["description"].startswith("No such resource")
    # without the router's 422, FastAPI would describe the path parameter's as "Validation Error"
    assert answers["422"]["description"].startswith("The request does not validate")


def test_a_credentialed_router_documents_401_first_and_admits_no_credential_itself() -> None:
    shared = credentialed_router("cards", responses=error_responses(404))

    assert list(shared.responses) == [401, 404] and shared.dependencies == []
    assert shared.tags == ["cards"]
