"""Scores out as Langfuse scores: the body posted to a loopback server is checked against the
request models of Langfuse's own published Python package, and is the very JSON that
package's API client sends for the same scores."""

from __future__ import annotations

import base64

import pytest
from fastapi.testclient import TestClient
from langfuse.api import LangfuseAPI
from langfuse.api.core.pydantic_utilities import parse_obj_as
from langfuse.api.scores import CreateScoresRequest
from pydantic import SecretStr

from judge.core.domain.scorecard import Scorecard
from judge.engine.telemetry.annotations import (
    Langfuse,
    Receivers,
    Target,
    flush_scores,
    langfuse_scores,
    send_scores,
)
from judge.engine.telemetry.opentelemetry import explanation, score_label
from judge.server.web import create_app
from tests.conftest import example, key_headers, owner_headers, service_settings, wait_final
from tests.engine.telemetry.conftest import (
    LANGFUSE_SECRET,
    SPAN_ID,
    TRACE_ID,
    LoopbackReceiver,
    all_traits,
    varied_judge,
)

PUBLIC = "pk-lf-1a2b3c4d"


def langfuse(url: str) -> Receivers:
    return Receivers(langfuse=Langfuse(url, PUBLIC, SecretStr(LANGFUSE_SECRET)))


def test_the_scores_are_langfuses_own_request_and_its_client_sends_the_same_json(
    card: Scorecard,
    receiver: LoopbackReceiver,
) -> None:
    send_scores(card, langfuse(receiver.url), trace_id=TRACE_ID, span_id=SPAN_ID)
    flush_scores()
    [ours] = receiver.requests
    assert ours.path == "/api/public/scores"
    basic = base64.b64encode(f"{PUBLIC}:{LANGFUSE_SECRET}".encode()).decode()
    assert ours.headers["Authorization"] == f"Basic {basic}"
    requests = parse_obj_as(CreateScoresRequest, ours.body)
    # every key sent is a field of Langfuse's model (it keeps unknown keys as extras)
    assert [r.model_extra for r in requests] == [{}] * len(requests)
    client = LangfuseAPI(base_url=receiver.url, username=PUBLIC, password=LANGFUSE_SECRET)
    client.scores.create(request=requests)
    theirs = receiver.requests[1]
    assert (theirs.path, theirs.body) == (ours.path, ours.body)
    assert theirs.headers["Authorization"] == ours.headers["Authorization"]


def test_one_numeric_score_per_trait_on_the_runs_trace_and_span(card: Scorecard) -> None:
    scores = langfuse_scores(card, Target(TRACE_ID, SPAN_ID))
    traits = all_traits(card)
    assert sorted(s["name"] for s in scores) == sorted(traits)
    for score in scores:
        result = traits[score["name"]]
        assert (score["traceId"], score["observationId"]) == (TRACE_ID, SPAN_ID)
        assert score["value"] == result.mean and score["dataType"] == "NUMERIC"
        assert score["comment"] == explanation(result)
        assert score["metadata"]["era_id"] == card.measurement_era.era_id
        assert score["metadata"]["rubric_hash"] == result.rubric_hash
        assert score["metadata"]["label"] == score_label(result.mean)
    # the same trait of the same run and era keeps its id: a repeated post updates it
    assert [s["id"] for s in langfuse_scores(card, Target(TRACE_ID, None))] == [
        s["id"] for s in scores
    ]
    assert len({s["id"] for s in scores}) == len(scores)


def test_a_trait_without_a_score_and_a_run_without_a_trace_send_nothing(card: Scorecard) -> None:
    seat = card.seats["buyer"]
    name, result = next(iter(seat.traits.items()))
    unscored = seat.model_copy(
        update={"traits": {**seat.traits, name: result.model_copy(update={"mean": None})}}
    )
    partly = card.model_copy(update={"seats": {"buyer": unscored}})
    assert name not in {s["name"] for s in langfuse_scores(partly, Target(TRACE_ID, None))}
    assert len(langfuse_scores(partly, Target(TRACE_ID, None))) == len(all_traits(card)) - 1
    assert langfuse_scores(card, Target(None, None)) == []
    assert "observationId" not in langfuse_scores(card, Target(TRACE_ID, None))[0]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_service_sends_an_owners_run_to_langfuse_and_an_agents_nowhere_it_names(
    database_url: str,
    receiver: LoopbackReceiver,
) -> None:
    settings = service_settings(database_url).model_copy(
        update={
            "langfuse_endpoint": receiver.url,
            "langfuse_public_key": PUBLIC,
            "langfuse_secret_key": SecretStr(LANGFUSE_SECRET),
        }
    )
    app = create_app(settings, backends=lambda model: varied_judge())
    owner = owner_headers()
    with TestClient(app) as client:
        alpha = key_headers(client.app.state.engine, "agent-alpha", "buyer")  # type: ignore[attr-defined]
        data = {**example("haggle"), "trace_id": TRACE_ID, "span_id": SPAN_ID}
        assert client.post("/api/evals/runs", json=data, headers=owner).status_code == 202
        assert client.post("/api/agent/runs", json=data, headers=alpha).status_code == 202
        assert wait_final(client, "haggle-0007", owner)["status"] == "scored"
        assert wait_final(client, "agent-alpha:haggle-0007", owner)["status"] == "scored"
    flush_scores()
    # the owner's run is scored on its trace and span; the agent's own run names a trace, but
    # has no trace of judge's to be scored on (no OTLP collector here), so Langfuse gets nothing
    [post] = receiver.requests
    assert {(s["traceId"], s["observationId"]) for s in post.body} == {(TRACE_ID, SPAN_ID)}
    assert {s["metadata"]["run_id"] for s in post.body} == {"haggle-0007"}
    assert len(post.body) == 12
