"""Dependencies shared by the routers, and the two kinds of router, which say once whom their
routes admit and what all of them answer (docs/architecture.md, "Add an API route")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from judge.server.api.caller import AgentDep, CallerDep, OwnerDep, current_owner
from judge.server.api.errors import error_responses
from judge.server.request_scope import EngineDep, SessionDep, SettingsDep, WorkersDep, after_commit

__all__ = [
    "AgentDep",
    "CallerDep",
    "EngineDep",
    "OwnerDep",
    "SessionDep",
    "SettingsDep",
    "WorkersDep",
    "after_commit",
    "credentialed_router",
    "owner_router",
]


Answers = dict[int | str, dict[str, Any]]


def credentialed_router(
    tag: str, *, prefix: str = "", responses: Answers | None = None
) -> APIRouter:
    """A router whose every route takes a credential (each names which); the 401 documented once."""
    return APIRouter(prefix=prefix, tags=[tag], responses=_with_401(responses))


def owner_router(tag: str, *, prefix: str = "", responses: Answers | None = None) -> APIRouter:
    """A router whose every route admits an owner token only (401 otherwise)."""
    admitted = [Depends(current_owner)]
    return APIRouter(
        prefix=prefix, tags=[tag], dependencies=admitted, responses=_with_401(responses)
    )


def _with_401(responses: Answers | None) -> Answers:
    return error_responses(401) | (responses or {})
