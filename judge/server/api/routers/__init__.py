"""Every router of the API, in inclusion (matching) order (docs/architecture.md, "Add an API
route")."""

from __future__ import annotations

from fastapi import APIRouter

from judge.server.api.routers import (
    align,
    coaching,
    compare,
    config,
    eras,
    escalation,
    export,
    health,
    ingest_keys,
    labels,
    leaderboards,
    metrics,
    queue,
    reviews,
    rubrics,
    rules,
    runs,
    scorecards,
    stability,
    submissions,
    telemetry,
    traces,
)

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    align.router,
    runs.router,
    scorecards.router,
    metrics.router,
    rubrics.router,
    config.router,
    eras.router,
    queue.router,
    telemetry.router,
    submissions.router,
    leaderboards.router,
    stability.router,
    export.router,
    coaching.router,
    compare.router,
    reviews.router,
    labels.router,
    escalation.router,
    traces.router,
    ingest_keys.router,
    rules.router,
)
