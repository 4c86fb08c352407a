"""Response models (``*Public``) are declared by the API layer, in judge/server/api/models.py.

None is declared by a service or the domain: the service returns a domain value, and the route
answers it under the public name."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient

from judge.core.domain.review import SafetyReview, SafetyReviewThresholds, ScorecardAttempt
from judge.engine.settings import load_settings
from judge.server.api import models
from judge.server.service.card_views import agent_view
from judge.server.web import create_app
from tests.factories import scorecard, seat

PACKAGE = Path(__file__).resolve().parents[3] / "judge"

#: Where a ``*Public`` class may be declared: the models module, and the error body.
HOMES = {"server/api/models.py", "server/api/errors.py"}
#: The response models the API declares for values the services return.
SERVICE_MODELS = {
    "ScorecardAttemptPublic": "judge.core.domain.review",
    "SafetyReviewPublic": "judge.core.domain.review",
    "CoachingPublic": "judge.server.service.coaching",
    "ConfigEntryPublic": "judge.server.service.config_views",
    "ConfigAuditPublic": "judge.server.service.config_views",
    "EraPublic": "judge.server.service.config_views",
    "PairwiseComparisonPublic": "judge.server.service.pairwise",
    "WorkerPublic": "judge.server.service.jobqueue.status",
    "QueuePublic": "judge.server.service.jobqueue.status",
    "CustomRubricPublic": "judge.server.service.rubrics",
    "ActiveRubricPublic": "judge.server.service.rubrics",
    "RubricsPublic": "judge.server.service.rubrics",
    "RubricHistoryPublic": "judge.server.service.rubrics",
    "RunSummaryPublic": "judge.server.service.run_listing",
    "SubmissionPublic": "judge.server.service.submissions",
    "AgentScorecardPublic": "judge.server.service.card_views",
    "RunPublic": "judge.server.service.views",
    "AlignmentPublic": "judge.server.service.align",
}
NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _public_classes() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        names = {
            node.name
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef) and node.name.endswith("Public")
        }
        if names:
            found[str(path.relative_to(PACKAGE))] = names
    return found


def test_public_response_models_are_declared_only_in_the_api_models_module() -> None:
    below_the_api = {k: v for k, v in _public_classes().items() if k not in HOMES}
    assert below_the_api == {}


def test_the_openapi_document_names_the_moved_models_as_before() -> None:
    app = create_app(load_settings(dev_mode=True, database_url="sqlite:///:memory:"))
    schemas = TestClient(app).get("/openapi.json").json()["components"]["schemas"]
    moved = {"OwnerScorecardPublic", "StabilityPublic", "LeaderboardPublic", "ComparisonPublic"}
    assert moved | set(SERVICE_MODELS) | {"PairwiseLeaderboardPublic", "HealthPublic"} <= set(
        schemas
    )


def test_a_public_reply_nests_the_public_models_and_keeps_every_field_of_the_value() -> None:
    earlier = ScorecardAttempt(
        attempt=1, measurement_era="era-a", archived_at=NOW, archived_by="owner:ann", url="/x"
    )
    review = SafetyReview(
        run_id="r-1",
        state="none",
        flagged=False,
        reasons=[],
        safety_min=0.9,
        safety_spread=0.1,
        thresholds=SafetyReviewThresholds(),
        attempt=2,
        reviews=[],
        earlier_scorecards=[earlier],
    )

    reply = models.SafetyReviewPublic.model_validate(review, from_attributes=True)

    assert type(reply.earlier_scorecards[0]) is models.ScorecardAttemptPublic
    assert reply.model_dump_json() == review.model_dump_json()


def test_the_documented_agent_card_renders_the_bytes_the_service_stores() -> None:
    card = scorecard("r-2", seat("buyer", traits={"negotiation": 0.5}, safety={"harm": 0.2}))
    stored = agent_view(card, "buyer", held=True)

    documented = models.AgentScorecardPublic.model_validate(stored, from_attributes=True)

    assert documented.model_dump_json() == stored.model_dump_json()
    assert documented.held_for_review is True


def test_a_list_answer_names_each_value_publicly_in_the_order_given() -> None:
    later = ScorecardAttempt(
        attempt=2, measurement_era="era-b", archived_at=NOW, archived_by="owner:bo", url="/y"
    )
    earlier = later.model_copy(update={"attempt": 1, "measurement_era": "era-a"})

    listed = models.public_list(models.ScorecardAttemptPublic, [later, earlier])

    assert [type(a) for a in listed] == [models.ScorecardAttemptPublic] * 2
    assert [(a.attempt, a.measurement_era) for a in listed] == [(2, "era-b"), (1, "era-a")]
