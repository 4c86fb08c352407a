"""Every router of the API, in one place. Each module defines ``router``.

Routers for submissions, leaderboards, stability, RL export and coaching are included as
soon as their modules exist (a module that exists but fails to import is a bug and fails
loudly).
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from fastapi import APIRouter

CORE = (
    "health",
    "runs",
    "scorecards",
    "metrics",
    "rubrics",
    "config",
    "eras",
    "queue",
    "telemetry",
)
OPTIONAL = (
    "submissions",
    "leaderboards",
    "stability",
    "export",
    "coaching",
    "compare",
    "reviews",
    "labels",
)


def router_modules() -> list[str]:
    present = [name for name in OPTIONAL if find_spec(f"{__name__}.{name}") is not None]
    return [*CORE, *present]


def all_routers() -> list[APIRouter]:
    return [import_module(f"{__name__}.{name}").router for name in router_modules()]
