"""docs/architecture.md, "Add an API route", walked: the files it names exist, every router
module is listed, and a route built by the recipe, added to an app from the composition
root, answers, is guarded and maps its errors like every other route."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlmodel import Session

from judge.core.domain.status import RUN_STATUSES
from judge.core.errors import ConfigError, NotFoundError
from judge.engine.judging.backends import ScriptedBackend
from judge.server.api.deps import SessionDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.limits import require_reserved
from judge.server.api.routers import ROUTERS
from judge.server.store import runs as run_repo
from judge.server.web import create_app
from tests.conftest import VERDICT, owner_headers, service_settings

REPO = Path(__file__).resolve().parents[3]
ROUTERS_DIR = REPO / "judge" / "server" / "api" / "routers"


def recipe() -> str:
    text = (REPO / "docs" / "architecture.md").read_text()
    return text.split("## Add an API route", 1)[1].split("\n## ", 1)[0]


def _missing(path: str) -> bool:
    """A pattern (`judge/server/service/<resource>.py`) names a file of an existing folder."""
    target = REPO / path
    return not (target.parent if "<" in path else target).exists()


def test_every_file_the_recipe_names_exists() -> None:
    named = re.findall(r"`((?:judge|tests|docs)/[^`]+)`", recipe())
    missing = [p for p in named if _missing(p)]

    assert len(named) >= 15 and missing == []


def test_every_router_module_is_listed_in_routers() -> None:
    modules = sorted(p.stem for p in ROUTERS_DIR.glob("*.py") if p.stem != "__init__")
    unlisted = [
        m
        for m in modules
        if importlib.import_module(f"judge.server.api.routers.{m}").router not in ROUTERS
    ]

    assert unlisted == []


# Step 2: the use case over the store, raising errors from judge.core.errors.
class WidgetPublic(BaseModel):
    widget_id: str
    runs: int


def widget(session: Session, *, widget_id: str) -> WidgetPublic:
    if widget_id != "w1":
        raise NotFoundError(f"widget {widget_id!r} not found")
    return WidgetPublic(
        widget_id=widget_id, runs=len(run_repo.runs_in_status(session, statuses=RUN_STATUSES))
    )


# Step 3: the router and its thin handler.
router = owner_router("widgets")


@router.get("/api/evals/widgets/{widget_id}", summary="One widget", responses=error_responses(404))
def get_widget(widget_id: str, session: SessionDep) -> WidgetPublic:
    """A widget and how many runs the service holds (a route of the recipe's walk)."""
    return widget(session, widget_id=widget_id)


def test_step_5_a_new_path_word_refuses_to_start_until_it_is_reserved() -> None:
    with pytest.raises(ConfigError, match="widgets"):
        require_reserved([r.path for r in router.routes])


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = service_settings(f"sqlite:///{tmp_path_factory.mktemp('route') / 'judge.db'}")
    app = create_app(settings, backends=lambda model: ScriptedBackend(VERDICT))
    app.include_router(router)  # what listing it in ROUTERS does for the real ones
    with TestClient(app) as client:
        yield client


def test_the_new_route_answers_an_owner(client: TestClient) -> None:
    answer = client.get("/api/evals/widgets/w1", headers=owner_headers())

    assert answer.status_code == 200
    assert answer.json() == {"widget_id": "w1", "runs": 0}


def test_the_new_route_refuses_a_missing_credential_like_every_route(client: TestClient) -> None:
    answer = client.get("/api/evals/widgets/w1")

    assert answer.status_code == 401
    assert answer.json() == {"code": "unauthenticated", "detail": "invalid or missing credentials"}


def test_an_error_of_the_service_is_mapped_to_its_status(client: TestClient) -> None:
    answer = client.get("/api/evals/widgets/w2", headers=owner_headers())

    assert answer.status_code == 404
    assert answer.json() == {"code": "not_found", "detail": "widget 'w2' not found"}


def test_the_new_route_is_in_the_published_document(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/api/evals/widgets/{widget_id}"]["get"]

    assert operation["summary"] == "One widget"
    assert operation["description"].startswith("A widget and how many runs the service holds")
    assert operation["security"] == [{"OwnerToken": []}]
