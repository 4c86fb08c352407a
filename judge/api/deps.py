"""Dependencies shared by the routers: the caller's credentials (``judge.api.caller``) and the
request's unit of work, settings and workers, which the console shares (``judge.deps``)."""

from __future__ import annotations

from judge.api.caller import AgentDep, CallerDep, OwnerDep
from judge.deprecations import moved, same_names
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

#: Moved to judge.deps with the rest of the request's unit of work.
__getattr__ = moved(__name__, same_names("judge.deps", ["get_workers", "unit_of_work"]))
