"""A scenario's leaderboards as the service reads them.

The rules live in :mod:`judge.core.scoring.leaderboard`; this module only gathers their inputs
from the store and decides who may read what. A board is built from the stored leaderboard
entries (:mod:`judge.server.store.leaderboard_entries`), never from the scorecards themselves.
"""

from __future__ import annotations

import threading

from cachetools import LRUCache
from sqlmodel import Session

from judge.core.scoring.leaderboard import (
    Leaderboard,
    LeaderboardRow,
    build_leaderboard,
)
from judge.server.store import leaderboard_entries as entry_repo

#: Boards built, by scenario and era, each with the stored entry rows it was built from. A
#: board is a function of those rows alone, so a read that finds the same rows answers the
#: board kept (reading the rows costs a tenth of building from them); any change to them (a
#: finalization, a rescore, a review hold or clear) builds it afresh. Boards are frozen values.
BOARDS: LRUCache[tuple[str, str | None], tuple[entry_repo.EntryRows, Leaderboard]] = LRUCache(64)
_BOARDS_LOCK = threading.Lock()


def leaderboard(
    session: Session, *, scenario_id: str, era_id: str | None, viewer: str | None = None
) -> Leaderboard:
    """The scenario's boards from its finalized submissions (one era, or every era flagged).

    ``viewer`` is the agent of an agent key: rows stay public (agent, era, aggregates) but
    the run ids of other agents' rows are left out.
    """
    rows = entry_repo.finalized_entry_rows(session, scenario_id=scenario_id, era_id=era_id)
    with _BOARDS_LOCK:
        kept = BOARDS.get((scenario_id, era_id))
    if kept is not None and kept[0] == rows:
        board = kept[1]
    else:
        entries = entry_repo.entries_of(rows)
        board = build_leaderboard(entries, scenario_id=scenario_id, era_id=era_id)
        with _BOARDS_LOCK:
            BOARDS[scenario_id, era_id] = (rows, board)
    return board if viewer is None else without_others_runs(board, viewer)


def without_others_runs(board: Leaderboard, viewer: str) -> Leaderboard:
    def redact(rows: list[LeaderboardRow]) -> list[LeaderboardRow]:
        return [r if r.agent_id == viewer else r.model_copy(update={"run_ids": []}) for r in rows]

    return board.model_copy(
        update={
            "ranked": redact(board.ranked),
            "self_hosted_facilitator": redact(board.self_hosted_facilitator),
            "self_reported": redact(board.self_reported),
        }
    )
