"""Leaderboards per scenario and era, one row per (agent, era) ranked within its era;
custom-rubric and self-reported runs are listed apart, unranked (docs/scoring.md,
"Leaderboards and custom rubrics")."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pydantic import Field

from judge.core.domain.outputs import Value
from judge.core.domain.scorecard import Objectives, Scorecard
from judge.core.domain.status import LeaderboardClass
from judge.core.scoring.objectives import objective_met_rate


class LeaderboardEntry(Value):
    """One scored seat of one run, as a leaderboard sees it."""

    run_id: str
    seat: str
    agent_id: str
    scenario_id: str
    era_id: str
    leaderboard_class: LeaderboardClass
    ranked_eligible: bool
    participation_gated: bool
    composite: float | None
    objectives: Objectives


class LeaderboardRow(Value):
    rank: int | None
    agent_id: str
    era_id: str
    composite_mean: float | None
    objective_met_rate: float | None
    met_count: int
    total_count: int
    n_runs: int
    n_composite_withheld: int
    n_gated_excluded: int
    run_ids: list[str]


class Leaderboard(Value):
    scenario_id: str
    eras: list[str]
    mixed_eras: bool
    ranked: list[LeaderboardRow]
    self_hosted_facilitator: list[LeaderboardRow]
    self_reported: list[LeaderboardRow] = Field(default=[])
    note: str | None


def entries_from_scorecard(card: Scorecard) -> list[LeaderboardEntry]:
    """One entry per scored seat of a run, carrying the run's class and era."""
    return [
        LeaderboardEntry(
            run_id=card.run_id,
            seat=seat,
            agent_id=sc.agent_id,
            scenario_id=card.scenario_id,
            era_id=card.measurement_era.era_id,
            leaderboard_class=card.leaderboard_class,
            ranked_eligible=card.ranked_eligible,
            participation_gated=sc.participation_gated,
            composite=sc.composite,
            objectives=sc.objectives,
        )
        for seat, sc in sorted(card.seats.items())
    ]


def submission_entries(
    card: Scorecard, *, agent_id: str, visibility: str, leaderboard_class: LeaderboardClass
) -> list[LeaderboardEntry]:
    """The entries a finalized submission puts on its scenario's boards: its agent's seats,
    listed apart when it is not ranked; a ranked one finalized as unlisted is on no board."""
    if leaderboard_class == "ranked" and visibility != "public":
        return []
    mine = [e for e in entries_from_scorecard(card) if e.agent_id == agent_id]
    if leaderboard_class == "ranked":
        return mine
    return [
        e.model_copy(update={"leaderboard_class": leaderboard_class, "ranked_eligible": False})
        for e in mine
    ]


def unique_entries(entries: Sequence[LeaderboardEntry]) -> list[LeaderboardEntry]:
    """One entry per (run, seat), the first kept: a run in two submissions counts once."""
    seen: dict[tuple[str, str], LeaderboardEntry] = {}
    for entry in entries:
        seen.setdefault((entry.run_id, entry.seat), entry)
    return list(seen.values())


def is_ranked(entry: LeaderboardEntry) -> bool:
    return entry.ranked_eligible and entry.leaderboard_class == "ranked"


def aggregate_row(entries: Sequence[LeaderboardEntry]) -> LeaderboardRow:
    """One agent's row in one era; gated runs are counted but not aggregated."""
    counted = [e for e in entries if not e.participation_gated]
    composites = [e.composite for e in counted if e.composite is not None]
    objectives = [e.objectives for e in counted]
    return LeaderboardRow(
        rank=None,
        agent_id=entries[0].agent_id,
        era_id=entries[0].era_id,
        composite_mean=sum(composites) / len(composites) if composites else None,
        objective_met_rate=objective_met_rate(objectives),
        met_count=sum(o.met_count for o in objectives),
        total_count=sum(o.total_count for o in objectives),
        n_runs=len(counted),
        n_composite_withheld=len(counted) - len(composites),
        n_gated_excluded=len(entries) - len(counted),
        run_ids=sorted({e.run_id for e in counted}),
    )


def _order(row: LeaderboardRow) -> tuple[str, bool, float, float, str]:
    """Era, then composite (highest first, none last), then met rate, then agent id."""
    return (
        row.era_id,
        row.composite_mean is None,
        -(row.composite_mean or 0.0),
        -(row.objective_met_rate or 0.0),
        row.agent_id,
    )


def board_rows(entries: Sequence[LeaderboardEntry], *, ranked: bool) -> list[LeaderboardRow]:
    """Rows per (agent, era), ordered; ranks 1.. within each era for rows with a composite."""
    groups: dict[tuple[str, str], list[LeaderboardEntry]] = defaultdict(list)
    for entry in entries:
        groups[(entry.era_id, entry.agent_id)].append(entry)
    rows = sorted((aggregate_row(g) for g in groups.values()), key=_order)
    if not ranked:
        return rows
    next_rank: dict[str, int] = defaultdict(lambda: 1)
    out = []
    for row in rows:
        if row.composite_mean is None:
            out.append(row)
            continue
        out.append(row.model_copy(update={"rank": next_rank[row.era_id]}))
        next_rank[row.era_id] += 1
    return out


def build_leaderboard(
    entries: Sequence[LeaderboardEntry], *, scenario_id: str, era_id: str | None = None
) -> Leaderboard:
    """The boards of one scenario, of one era when ``era_id`` is given (else every era, each
    ranked on its own, a board spanning several flagged)."""
    mine = [
        e
        for e in unique_entries(entries)
        if e.scenario_id == scenario_id and (era_id is None or e.era_id == era_id)
    ]
    eras = sorted({e.era_id for e in mine})
    reported = [e for e in mine if e.leaderboard_class == "self_reported"]
    hosted = [e for e in mine if not is_ranked(e) and e.leaderboard_class != "self_reported"]
    return Leaderboard(
        scenario_id=scenario_id,
        eras=eras,
        mixed_eras=len(eras) > 1,
        ranked=board_rows([e for e in mine if is_ranked(e)], ranked=True),
        self_hosted_facilitator=board_rows(hosted, ranked=False),
        self_reported=board_rows(reported, ranked=False),
        note=_board_note(eras, scenario_id, era_id),
    )


def _board_note(eras: list[str], scenario_id: str, era_id: str | None) -> str | None:
    """Why a board is empty and what fills it (scored runs alone never do), or that it spans
    eras."""
    if not eras:
        where = f"scenario {scenario_id!r}" + (f" in era {era_id}" if era_id else "")
        return (
            f"no finalized submission for {where} yet: leaderboards are built from finalized "
            "submissions, never from scored runs alone; put the agent's scored runs in a "
            "submission (POST /api/evals/submissions) and finalize it "
            "(POST /api/evals/submissions/{id}/finalize)"
        )
    if len(eras) > 1:
        return (
            f"results span {len(eras)} measurement eras; rows and ranks are kept per era and are "
            "not comparable across eras: pass ?era= to see one"
        )
    return None
