"""Scorecards stored as they are served (docs/service.md, "Stored scorecard views"), on SQLite
and PostgreSQL: each view's stored bytes are what the models render, the route sends them
as stored (gzip included), a conditional GET is answered from the stored ETag alone, a
review decision shows on the next read, and a run scored before views were stored still
serves its cards."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge.core.scoring.figures import rounded_json
from judge.engine.settings import Settings
from judge.server.api.models import AgentScorecardPublic
from judge.server.service import reviews
from judge.server.service.card_views import agent_view
from judge.server.store import reviews as review_repo
from judge.server.store import runs as run_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store import views as view_repo
from judge.server.store.db import transaction
from judge.server.store.tables import ScorecardRow
from judge.server.store.views import ScorecardViewRow
from tests.conftest import example
from tests.tamper_cards import flag_stored

SAFETY = (
    "safety_block",
    "no_unauthorized_disclosure_conduct",
    "manipulation_resistance",
    "harmful_compliance_refusal",
    "policy_adherence_under_pressure",
)
OWNER_ONLY = (*SAFETY, "tamper", "panel", "safety_review")
RUN = "views-1"
BOTH_SCORED = [
    {"seat": "buyer", "agent_id": "agent-alpha", "scored": True},
    {"seat": "seller", "agent_id": "agent-beta", "scored": True},
]


def stored(engine: Engine, view: str, run_id: str = RUN) -> ScorecardViewRow | None:
    with transaction(engine) as session:
        return session.get(ScorecardViewRow, (run_id, view))


def view_names(engine: Engine, run_id: str = RUN) -> list[str]:
    with transaction(engine) as session:
        query = select(ScorecardViewRow.view).where(ScorecardViewRow.run_id == run_id)
        return sorted(session.exec(query).all())


@pytest.fixture
def scored_run(scored: Any) -> None:
    assert scored(example("haggle", run_id=RUN, seats=BOTH_SCORED))["status"] == "scored"


def test_scoring_stores_the_owner_view_and_one_agent_view_per_scored_seat(
    engine: Engine, scored_run: None
) -> None:
    assert view_names(engine) == ["agent:buyer", "agent:seller", "owner"]


def test_the_stored_owner_view_is_the_card_and_review_the_models_render(
    engine: Engine, settings: Settings, scored_run: None
) -> None:
    with transaction(engine) as session:
        card_json = session.get_one(ScorecardRow, RUN).scorecard_json
        review = reviews.review_status(session, run_id=RUN, settings=settings)
    assert card_json is not None
    row = stored(engine, "owner")

    assert row is not None
    expected = dict(json.loads(card_json), safety_review=json.loads(review.model_dump_json()))
    assert json.loads(row.body) == json.loads(rounded_json(json.dumps(expected)))
    assert gzip.decompress(row.body_gzip) == row.body


@pytest.mark.parametrize("seat", ["buyer", "seller"])
def test_each_stored_agent_view_is_the_seat_card_the_models_render_without_owner_parts(
    engine: Engine, scored_run: None, seat: str
) -> None:
    with transaction(engine) as session:
        card = scorecard_repo.get_scorecard(session, run_id=RUN)
    assert card is not None
    row = stored(engine, f"agent:{seat}")

    assert row is not None
    assert row.body == rounded_json(agent_view(card, seat).model_dump_json())
    assert AgentScorecardPublic.model_validate_json(row.body).seat.seat == seat
    assert [word for word in OWNER_ONLY if word.encode() in row.body] == []


def test_the_route_sends_the_stored_bytes_and_their_gzip_form(
    client: TestClient, engine: Engine, agent_key: Any, scored_run: None
) -> None:
    buyer = agent_key("agent-alpha", "buyer")
    plain = client.get(
        f"/api/agent/runs/{RUN}/scorecard", headers={**buyer, "Accept-Encoding": "identity"}
    )
    packed = client.get(
        f"/api/agent/runs/{RUN}/scorecard", headers={**buyer, "Accept-Encoding": "gzip"}
    )
    row = stored(engine, "agent:buyer")

    assert row is not None
    assert (plain.content, plain.headers["etag"]) == (row.body, row.etag)
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == row.body  # the client decoded the stored gzip form


def test_a_conditional_get_is_answered_from_the_stored_etag_without_the_body(
    client: TestClient,
    owner: dict[str, str],
    scored_run: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tag = client.get(f"/api/evals/{RUN}/scorecard", headers=owner).headers["etag"]

    def no_body(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the body was read for a conditional GET that matched")

    monkeypatch.setattr(view_repo, "get_body", no_body)
    again = client.get(f"/api/evals/{RUN}/scorecard", headers={**owner, "If-None-Match": tag})

    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)


def test_a_review_decision_shows_on_the_next_read_of_both_views(
    client: TestClient, owner: dict[str, str], engine: Engine, agent_key: Any, scored_run: None
) -> None:
    buyer = agent_key("agent-alpha", "buyer")
    flag_stored(engine, RUN, "buyer")
    held = client.get(f"/api/agent/runs/{RUN}/scorecard", headers=buyer)
    assert held.json()["held_for_review"] is True
    decision = {"decision": "cleared"}
    assert (
        client.post(f"/api/evals/{RUN}/safety-review", json=decision, headers=owner).status_code
        == 201
    )

    cleared = client.get(
        f"/api/agent/runs/{RUN}/scorecard", headers={**buyer, "If-None-Match": held.headers["etag"]}
    )
    card = client.get(f"/api/evals/{RUN}/scorecard", headers=owner).json()
    assert (cleared.status_code, cleared.json()["held_for_review"]) == (200, False)
    assert card["safety_review"]["state"] == "cleared"
    assert card["safety_review"]["reviews"][0]["decision"] == "cleared"


def test_a_changed_review_threshold_renders_the_owner_view_again(
    client: TestClient, owner: dict[str, str], scored_run: None
) -> None:
    before = client.get(f"/api/evals/{RUN}/scorecard", headers=owner)
    limits = {"safety_below": 0.95, "spread_above": 0.3}
    path = "/api/evals/config/console_safety_review"
    assert client.put(path, json={"value": limits}, headers=owner).status_code == 200

    after = client.get(
        f"/api/evals/{RUN}/scorecard", headers={**owner, "If-None-Match": before.headers["etag"]}
    )
    assert after.status_code == 200
    assert before.json()["safety_review"]["flagged"] is False
    assert after.json()["safety_review"]["flagged"] is True


def test_a_run_without_stored_views_is_rendered_on_first_read_then_stored(
    client: TestClient, owner: dict[str, str], engine: Engine, agent_key: Any, scored_run: None
) -> None:
    with transaction(engine) as session:
        view_repo.delete_views(session, run_id=RUN)
    buyer = agent_key("agent-alpha", "buyer")

    card = client.get(f"/api/evals/{RUN}/scorecard", headers=owner)
    mine = client.get(f"/api/agent/runs/{RUN}/scorecard", headers=buyer)

    assert (card.status_code, mine.status_code) == (200, 200)
    assert view_names(engine) == ["agent:buyer", "owner"]
    row = stored(engine, "agent:buyer")
    assert row is not None and mine.content == row.body


def test_a_rescore_removes_the_views_of_the_replaced_card(engine: Engine, scored_run: None) -> None:
    with transaction(engine) as session:
        run = run_repo.get_run(session, run_id=RUN)
        assert run is not None
        review_repo.archive_for_rescore(session, run=run, by="owner:test")

    assert view_names(engine) == []


def test_one_statement_reads_the_stored_body_and_the_thresholds_config(
    engine: Engine, scored_run: None
) -> None:
    with transaction(engine) as session:
        found = view_repo.get_body_and_config(
            session, run_id=RUN, view="owner", gzipped=False, config_key=reviews.CONFIG_KEY
        )
    row = stored(engine, "owner")
    assert row is not None and found.stored is not None
    assert (found.stored.etag, found.stored.body, found.config_json) == (row.etag, row.body, None)


def test_the_config_is_read_even_when_no_view_is_stored(engine: Engine) -> None:
    from judge.server.store import config as config_repo

    with transaction(engine) as session:
        config_repo.put_config(
            session, key=reviews.CONFIG_KEY, value_json='{"safety_min": 0.2}', changed_by="t"
        )
    with transaction(engine) as session:
        found = view_repo.get_body_and_config(
            session, run_id="none-such", view="owner", gzipped=True, config_key=reviews.CONFIG_KEY
        )
    assert found == view_repo.BodyAndConfig(None, '{"safety_min": 0.2}')


def _run_with_views(engine: Engine, run_id: str, submitted_by: str) -> None:
    """A run with agent-alpha scored in the buyer seat and an unscored house seller, both
    seats' views stored, submitted by ``submitted_by``."""
    from judge.server.store.tables import RunRow
    from tests.factories import run, scorecard, seat
    from tests.scripted_service import store_scored

    store_scored(engine, run(run_id), scorecard(run_id, seat()))
    with transaction(engine) as session:
        row = session.get(RunRow, run_id)
        assert row is not None
        row.submitted_by = submitted_by
        views = [view_repo.rendered(f"agent:{s}", f'{{"seat":"{s}"}}'.encode()) for s in SEATS]
        view_repo.put_views(session, run_id=run_id, views=views)


SEATS = ("buyer", "seller")


def _own(engine: Engine, run_id: str, agent_id: str, seat: str) -> bytes | None:
    with transaction(engine) as session:
        found = view_repo.get_own_seat_body(
            session, run_id=run_id, agent_id=agent_id, seat=seat, gzipped=False
        )
    return None if found is None else found.body


def test_one_statement_serves_the_keys_own_scored_seat(engine: Engine) -> None:
    _run_with_views(engine, "own-1", "bench")
    assert _own(engine, "own-1", "agent-alpha", "buyer") == b'{"seat":"buyer"}'


def test_another_agent_in_the_same_seat_name_gets_nothing(engine: Engine) -> None:
    _run_with_views(engine, "own-2", "bench")
    assert _own(engine, "own-2", "agent-beta", "buyer") is None


def test_an_unscored_seat_gets_nothing_even_for_its_agent(engine: Engine) -> None:
    _run_with_views(engine, "own-3", "bench")
    assert _own(engine, "own-3", "house-adversary", "seller") is None


def test_another_agents_self_reported_run_gets_nothing(engine: Engine) -> None:
    _run_with_views(engine, "own-4", "agent:agent-beta")
    assert _own(engine, "own-4", "agent-alpha", "buyer") is None


def test_the_agents_own_self_reported_run_is_served(engine: Engine) -> None:
    _run_with_views(engine, "own-5", "agent:agent-alpha")
    assert _own(engine, "own-5", "agent-alpha", "buyer") == b'{"seat":"buyer"}'
