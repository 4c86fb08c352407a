"""Liveness: a static answer, no auth, no database."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from judge.versions import __version__

router = APIRouter(tags=["health"])


class HealthPublic(BaseModel):
    status: str
    version: str


_HEALTH = HealthPublic(status="ok", version=__version__)


@router.get(
    "/api/health",
    summary="Liveness",
    description="A static answer: no authentication, no database.",
)
def health() -> HealthPublic:
    return _HEALTH
