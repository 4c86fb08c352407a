"""A running service over a temporary SQLite store, a scripted judge, and credentials.

Runs with exact scorecards are stored straight through the repository functions (the
service is already started, so nothing requeues them); one test per resource also goes
through real scoring by the workers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.settings import Settings, load_settings
from judge.server.auth import create_owner_token
from judge.server.service import platform
from judge.server.service.intake import canonical_body
from judge.server.service.keys import issue_key
from judge.server.store import eras as era_repo
from judge.server.store import runs as run_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store.db import transaction
from judge.server.web import create_app


@dataclass
class Service:
    client: TestClient
    settings: Settings
    backend: ScriptedBackend
    coaching_reply: str = '{"notes": []}'
    verdict_score: float = 0.7
    owner: dict[str, str] = field(default_factory=dict)

    @property
    def engine(self) -> Engine:
        engine: Engine = self.client.app.state.engine  # type: ignore[attr-defined]
        return engine

    def agent(self, agent_id: str, seat: str) -> dict[str, str]:
        with transaction(self.engine) as session:
            key = issue_key(session, agent_id=agent_id, seat=seat)
        return {"Authorization": f"Bearer {key}"}

    def current_era_id(self) -> str:
        with transaction(self.engine) as session:
            return platform.current_stack(session, settings=self.settings).era_id

    def store_scored(self, run: Run, card: Scorecard | None = None) -> None:
        """Store a run (queued when no card is given, else scored with exactly that card)."""
        store_scored(self.engine, run, card)


def store_scored(engine: Engine, run: Run, card: Scorecard | None = None) -> None:
    """Store a run in any database (queued when no card is given, else scored with that card)."""
    body = canonical_body(run)
    with transaction(engine) as session:
        run_repo.insert_run(
            session, run=run, body_json=body.text, body_sha256=body.sha256, submitted_by="test"
        )
        session.flush()
        if card is None:
            return
        if era_repo.get_era(session, era_id=card.measurement_era.era_id) is None:
            era_repo.open_era(session, era=card.measurement_era, opened_by="test", reason="test")
        scorecard_repo.add_scorecard(session, card=card)


def _answer(service: list[Service]) -> object:
    def answer(request: JudgeRequest) -> str:
        if request.label == "coaching":
            return service[0].coaching_reply
        return json.dumps(
            {"score": service[0].verdict_score, "turns": [1], "rationale": "scripted"}
        )

    return answer


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[Service]:
    settings = load_settings(
        dev_mode=True,
        database_url=f"sqlite:///{tmp_path / 'judge.db'}",
        model="scripted-judge",
        backoff_initial_s=0.0,
    )
    holder: list[Service] = []
    backend = ScriptedBackend(_answer(holder), model="scripted-judge")  # type: ignore[arg-type]
    app = create_app(settings, backends=lambda _model: backend)
    with TestClient(app) as client:
        token = create_owner_token(
            owner="olive",
            secret=settings.signing_secret,
            audience=settings.jwt_audience,
            ttl=timedelta(hours=1),
        )
        service = Service(client, settings, backend, owner={"Authorization": f"Bearer {token}"})
        holder.append(service)
        yield service
