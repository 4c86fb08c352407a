"""Response models (``*Public``) are declared by the API layer, in judge/api/models.py.

The ones still declared by a service or the domain are listed here by name: a new one fails
this test, and moving one to judge/api/models.py means taking it off the list (the service
then returns a domain value, and the route declares the public name)."""

from __future__ import annotations

import ast
from pathlib import Path

from fastapi.testclient import TestClient

from judge.settings import load_settings
from judge.web import create_app

PACKAGE = Path(__file__).resolve().parents[2] / "judge"

#: Where a ``*Public`` class may be declared: the models module, and the error body.
HOMES = {"api/models.py", "api/errors.py"}
#: Still declared below the API (to move, each with the service function that builds it).
NOT_MOVED_YET = {
    "domain/review.py": {"ScorecardAttemptPublic", "SafetyReviewPublic"},
    "service/coaching.py": {"CoachingPublic"},
    "service/config_views.py": {"ConfigEntryPublic", "ConfigAuditPublic", "EraPublic"},
    "service/pairwise.py": {"PairwiseComparisonPublic"},
    "service/jobqueue/status.py": {"WorkerPublic", "QueuePublic"},
    "service/rubrics.py": {
        "CustomRubricPublic", "ActiveRubricPublic", "RubricsPublic", "RubricHistoryPublic",
    },
    "service/run_listing.py": {"RunSummaryPublic"},
    "service/submissions.py": {"SubmissionPublic"},
    "service/card_views.py": {"AgentScorecardPublic"},
    "service/views.py": {"RunPublic"},
}  # fmt: skip


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
    assert below_the_api == NOT_MOVED_YET


def test_the_openapi_document_names_the_moved_models_as_before() -> None:
    app = create_app(load_settings(dev_mode=True, database_url="sqlite:///:memory:"))
    schemas = TestClient(app).get("/openapi.json").json()["components"]["schemas"]
    moved = {"OwnerScorecardPublic", "StabilityPublic", "LeaderboardPublic", "ComparisonPublic"}
    assert moved | {"PairwiseLeaderboardPublic", "HealthPublic"} <= set(schemas)
