"""The request's unit of work: it commits when the route returns, rolls back when it raises,
and runs what was registered with ``after_commit`` only after a commit."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlmodel import Session

from judge.server.request_scope import after_commit, unit_of_work
from judge.server.store import config as config_repo
from judge.server.store.db import make_engine
from judge.server.store.migrate import upgrade


@pytest.fixture
def request_stub(tmp_path: Path) -> Any:
    engine = make_engine(f"sqlite:///{tmp_path / 'judge.db'}")
    upgrade(engine)
    return SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(engine=engine)))


def _stored(request_stub: Any) -> str | None:
    with Session(request_stub.app.state.engine) as session:
        row = config_repo.get_config(session, key="eval_reward_weights")
        return None if row is None else row.value_json


def test_the_work_of_a_route_that_returns_is_committed_then_the_follow_ups_run(
    request_stub: Any,
) -> None:
    ran: list[str | None] = []
    work = unit_of_work(request_stub)
    session = next(work)
    config_repo.put_config(
        session, key="eval_reward_weights", value_json='{"w_progress": 1}', changed_by="owner:ops"
    )
    after_commit(session, lambda: ran.append(_stored(request_stub)))

    with pytest.raises(StopIteration):
        next(work)

    assert ran == ['{"w_progress": 1}']  # the follow-up saw the committed row


def test_the_work_of_a_route_that_raises_is_rolled_back_and_no_follow_up_runs(
    request_stub: Any,
) -> None:
    ran: list[str] = []
    work = unit_of_work(request_stub)
    session = next(work)
    config_repo.put_config(
        session, key="eval_reward_weights", value_json='{"w_progress": 1}', changed_by="owner:ops"
    )
    session.flush()
    after_commit(session, lambda: ran.append("queued"))

    with pytest.raises(RuntimeError):
        work.throw(RuntimeError("the route failed"))

    assert _stored(request_stub) is None and ran == []


def test_routes_read_the_settings_the_app_was_built_with_without_an_override(
    tmp_path: Path,
) -> None:
    from judge.engine.settings import load_settings
    from judge.server.request_scope import app_settings
    from judge.server.web import create_app

    settings = load_settings(
        database_url=f"sqlite:///{tmp_path / 'j.db'}", jwt_secret="k3y-0f-th3-t3st-Xq9Zw7Vb2Nm4Lp8R"
    )
    app = create_app(settings)
    # any override makes FastAPI inspect every dependency again on each request
    assert app.dependency_overrides == {}
    assert asyncio.run(app_settings(SimpleNamespace(app=app))) is settings  # type: ignore[arg-type]


def test_a_hot_read_keeps_what_it_stored_and_the_caller_s_context(request_stub: Any) -> None:
    """``in_read``: the work runs on a read thread that sees the caller's context variables,
    what it stored is kept when it returns, and its error reaches the caller."""
    import contextvars

    from judge.server.request_scope import in_read

    engine = request_stub.app.state.engine
    marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="unset")

    def store(session: Session) -> str:
        config_repo.put_config(
            session, key="eval_reward_weights", value_json='{"w_progress": 2}', changed_by="t"
        )
        return marker.get()

    def fail(session: Session) -> None:
        raise RuntimeError(f"failed in {marker.get()} context")

    async def read() -> str:
        marker.set("the request's")
        seen = await in_read(engine, store)
        with pytest.raises(RuntimeError, match="failed in the request's context"):
            await in_read(engine, fail)
        return seen

    assert asyncio.run(read()) == "the request's"
    assert _stored(request_stub) == '{"w_progress": 2}'
