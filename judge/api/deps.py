"""Dependencies shared by the routers: the caller's credentials (``judge.api.caller``) and the
request's unit of work, settings and workers, which the console shares (``judge.deps``)."""

from __future__ import annotations

from judge.api.caller import AgentDep, CallerDep, OwnerDep
from judge.deps import (
    EngineDep,
    SessionDep,
    SettingsDep,
    WorkersDep,
    after_commit,
)

__all__ = [
    "AgentDep",
    "CallerDep",
    "EngineDep",
    "OwnerDep",
    "SessionDep",
    "SettingsDep",
    "WorkersDep",
    "after_commit",
]
