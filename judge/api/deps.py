"""Dependencies shared by the routers (FastAPI full-stack-template style aliases)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.api.auth import current_agent, current_owner
from judge.api.db import get_engine, get_session
from judge.auth import AgentIdentity, OwnerClaims
from judge.service.jobs import ScoringWorkers
from judge.settings import Settings, get_settings


def get_workers(request: Request) -> ScoringWorkers:
    workers: ScoringWorkers = request.app.state.workers
    return workers


EngineDep = Annotated[Engine, Depends(get_engine)]
SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
WorkersDep = Annotated[ScoringWorkers, Depends(get_workers)]
OwnerDep = Annotated[OwnerClaims, Depends(current_owner)]
AgentDep = Annotated[AgentIdentity, Depends(current_agent)]
