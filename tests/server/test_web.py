"""The composition root: one app with the API and the console, and errors answered in each
one's own form."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from judge.engine.settings import load_settings
from judge.server.web import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('web') / 'judge.db'}"
    with TestClient(create_app(load_settings(dev_mode=True, database_url=url))) as client:
        yield client


def test_the_app_serves_the_api_and_the_console(client: TestClient) -> None:
    assert client.get("/api/health").status_code == 200
    page = client.get("/console/sign-in")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_an_error_on_a_console_path_is_an_html_page(client: TestClient) -> None:
    answer = client.get("/console/runs", follow_redirects=False)

    assert answer.status_code == 401
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["www-authenticate"] == 'Cookie realm="console"'


def test_an_error_on_an_api_path_is_the_json_error_body(client: TestClient) -> None:
    answer = client.get("/api/evals/haggle-0001/scorecard")

    assert answer.status_code == 401
    assert answer.json() == {"code": "unauthenticated", "detail": "invalid or missing credentials"}
