"""Dependencies shared by the routers (FastAPI full-stack-template style aliases)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.api.auth import current_agent, current_owner
from judge.api.db import get_engine, get_session
from judge.auth import AgentIdentity, OwnerClaims
from judge.service.executors import ScoringExecutor
from judge.settings import Settings, get_settings


def get_workers(request: Request) -> ScoringExecutor:
    workers: ScoringExecutor = request.app.state.workers
    return workers


EngineDep = Annotated[Engine, Depends(get_engine)]
SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
WorkersDep = Annotated[ScoringExecutor, Depends(get_workers)]
OwnerDep = Annotated[OwnerClaims, Depends(current_owner)]
AgentDep = Annotated[AgentIdentity, Depends(current_agent)]
