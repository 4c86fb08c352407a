"""A scenario's leaderboards (rules: :mod:`judge.core.scoring.leaderboard`), built from the
stored leaderboard entries, never the scorecards, and who may read what."""

from __future__ import annotations

import threading

from cachetools import LRUCache
from sqlmodel import Session

from judge.core.scoring.leaderboard import Leaderboard, LeaderboardRow, build_leaderboard
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
    """The scenario's boards from its finalized submissions (one era, or every era flagged);
    for an agent key's ``viewer`` the run ids of other agents' rows are left out."""
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

    classes = ("ranked", "self_hosted_facilitator", "self_reported")
    return board.model_copy(update={c: redact(getattr(board, c)) for c in classes})
