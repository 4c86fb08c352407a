"""The request's engine and session (one session per request, shared by its dependencies)."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Request
from sqlalchemy.engine import Engine
from sqlmodel import Session


def get_engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def get_session(request: Request) -> Iterator[Session]:
    with Session(get_engine(request), expire_on_commit=False) as session:
        yield session
