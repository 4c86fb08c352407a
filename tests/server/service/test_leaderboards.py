"""A board is built once per state of its stored entries: read again with the same rows it
is the board kept; a hold, a clear or a new finalization changes the rows and builds it
afresh, equal to a build from scratch. Both stores (the ``engine`` fixture)."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.scoring.leaderboard import Leaderboard
from judge.server.service import leaderboards
from judge.server.service.leaderboards import BOARDS, leaderboard
from tests.factories import scorecard, seat
from tests.server.store.test_leaderboard_entries import SCENARIO, _finalize, _flag, _populate


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The scenario of every board built (not answered from the kept ones)."""
    built: list[str] = []
    build = leaderboards.build_leaderboard

    def counted(*args: object, **kwargs: object) -> Leaderboard:
        built.append(str(kwargs["scenario_id"]))
        return build(*args, **kwargs)  # type: ignore[arg-type]

    BOARDS.clear()
    monkeypatch.setattr(leaderboards, "build_leaderboard", counted)
    return built


def _read(engine: Engine, era_id: str | None = None, viewer: str | None = None) -> Leaderboard:
    with Session(engine) as session:
        return leaderboard(session, scenario_id=SCENARIO, era_id=era_id, viewer=viewer)


def _fresh(engine: Engine, era_id: str | None = None) -> Leaderboard:
    BOARDS.clear()
    return _read(engine, era_id)


def test_the_same_rows_answer_the_board_kept(engine: Engine, builds: list[str]) -> None:
    _populate(engine)
    first = _read(engine)
    again = _read(engine)
    assert again is first and builds == [SCENARIO]
    _read(engine, "era-b")  # another era is another board
    assert builds == [SCENARIO, SCENARIO]


def test_a_hold_a_clear_and_a_finalization_each_build_the_board_afresh(
    engine: Engine, builds: list[str]
) -> None:
    _populate(engine)
    before = _read(engine)
    zeta = next(r for r in before.ranked if r.agent_id == "zeta")
    assert zeta.run_ids == ["r10-b"]

    _flag(engine, "r10-b", "none")  # held again: off the ranked board
    held = _read(engine)
    assert "zeta" not in [r.agent_id for r in held.ranked]
    _flag(engine, "r10-a", "cleared")
    cleared = _read(engine)
    assert next(r for r in cleared.ranked if r.agent_id == "zeta").run_ids == ["r10-a"]
    _finalize(engine, "s-theta", "theta", [scorecard("r11", seat(agent_id="theta", composite=1))])
    added = _read(engine)
    assert added.ranked[0].agent_id == "theta"

    assert len(builds) == 4
    assert added == _fresh(engine)


def test_an_agent_s_redaction_leaves_the_kept_board_whole(
    engine: Engine, builds: list[str]
) -> None:
    _populate(engine)
    seen_by_zeta = _read(engine, "era-a", viewer="zeta")
    assert {r.agent_id: r.run_ids for r in seen_by_zeta.ranked}["alpha"] == []
    owners = _read(engine, "era-a")
    assert {r.agent_id: r.run_ids for r in owners.ranked}["alpha"] == ["r1", "r2", "r4"]
    assert builds == [SCENARIO] and owners == _fresh(engine, "era-a")
