"""Liveness: a static answer, no auth, no database."""

from __future__ import annotations

from fastapi import APIRouter

from judge.core.versions import __version__
from judge.server.api.models import HealthPublic

router = APIRouter(tags=["health"])


_HEALTH = HealthPublic(status="ok", version=__version__)


@router.get("/api/health", summary="Liveness")
def health() -> HealthPublic:
    """A static answer: no authentication, no database."""
    return _HEALTH
