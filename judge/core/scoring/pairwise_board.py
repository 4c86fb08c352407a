"""Pairwise eras and ratings: verdicts of one era and scenario, fitted together and never
mixed with another era's (docs/scoring.md, "Pairwise judging")."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.cost import Cost
from judge.core.domain.outputs import Value
from judge.core.domain.pairwise import (
    PairVerdict,
    PairwiseComparison,
    PairwiseRatings,
    UnpairedSide,
)
from judge.core.scoring.bradley_terry import TIE_RULE, Game, rate
from judge.core.scoring.cost import cost_of
from judge.core.scoring.era import integrity_identity, stack_digest
from judge.core.scoring.leaderboard import LeaderboardEntry, is_ranked, unique_entries
from judge.core.scoring.pairwise import position_bias

#: Resamples behind each rating interval.
N_BOOTSTRAP = 500


def pairwise_era(
    *,
    judge_model: str,
    rubric_hash: str,
    prompt_version: int,
    settings: MeasurementSettings,
    decoders: Mapping[str, str] | None = None,
) -> str:
    """A stable id for everything in the stack below that can move a pairwise verdict."""
    stack: dict[str, object] = {
        "mode": "pairwise",
        "judge_model": judge_model,
        "prompt_version": prompt_version,
        "rubric_hash": rubric_hash,
        "passes": settings.denoise.passes,
        "floor": settings.denoise.min_n_runs,
        "integrity": integrity_identity(settings),
        "decoders": dict(sorted((decoders or {}).items())),
    }
    return f"pw-era-{stack_digest(stack)[:16]}"


def games_of(verdicts: Sequence[PairVerdict]) -> list[Game]:
    """The pairs with an outcome, as games between the two seats' agents."""
    return [
        Game(v.side_a.agent_id, v.side_b.agent_id, v.outcome)
        for v in verdicts
        if v.outcome is not None
    ]


def ratings_by_era(
    verdicts: Sequence[PairVerdict], *, n_bootstrap: int = N_BOOTSTRAP, ranked: bool = True
) -> list[PairwiseRatings]:
    """One Bradley-Terry fit per (era, scenario, trait): eras are never pooled."""
    groups: dict[tuple[str, str, str], list[PairVerdict]] = defaultdict(list)
    for verdict in verdicts:
        groups[(verdict.era_id, verdict.key.scenario_id, verdict.trait)].append(verdict)
    return [
        _ratings(era, scenario, games_of(mine), n_bootstrap, ranked)
        for (era, scenario, _trait), mine in sorted(groups.items())
    ]


def _ratings(
    era: str, scenario: str, games: list[Game], n_bootstrap: int, ranked: bool
) -> PairwiseRatings:
    return PairwiseRatings(
        scenario_id=scenario,
        era_id=era,
        ratings=rate(games, n_bootstrap=n_bootstrap, ranked=ranked),
        n_pairs=len(games),
        n_bootstrap=n_bootstrap,
        confidence=0.95,
        tie_rule=TIE_RULE,
    )


def pairwise_cost(verdicts: Sequence[PairVerdict]) -> Cost:
    """Calls, tokens, dollars (unknown rather than 0 where a pass had no price) and seconds of
    every pass of the verdicts."""
    return cost_of([p for v in verdicts for p in v.passes])


def pairwise_comparison(
    verdicts: Sequence[PairVerdict],
    *,
    label_a: str,
    label_b: str,
    trait: str,
    judge_model: str,
    era_id: str,
    passes_per_order: int,
    unpaired: Sequence[UnpairedSide] = (),
    n_bootstrap: int = N_BOOTSTRAP,
) -> PairwiseComparison:
    """Every pair's verdict with the judge's position bias and the agents' ratings."""
    return PairwiseComparison(
        label_a=label_a,
        label_b=label_b,
        trait=trait,
        judge_model=judge_model,
        era_id=era_id,
        passes_per_order=passes_per_order,
        pairs=list(verdicts),
        bias=position_bias(verdicts, judge_model, trait),
        ratings=ratings_by_era(verdicts, n_bootstrap=n_bootstrap),
        cost=pairwise_cost(verdicts),
        unpaired=list(unpaired),
    )


class PairwiseLeaderboard(Value):
    """``mode=pairwise``: a scenario's ratings on one trait, one fit per pairwise era. Pairs
    with both seats on the ranked board are ``ranked``; a gated seat or one on no board is
    left out."""

    scenario_id: str
    trait: str
    eras: list[str]
    mixed_eras: bool
    ranked: list[PairwiseRatings]
    unranked: list[PairwiseRatings]
    n_left_out: int
    note: str | None


def pairwise_leaderboard(
    verdicts: Sequence[PairVerdict],
    entries: Sequence[LeaderboardEntry],
    *,
    scenario_id: str,
    trait: str,
    era_id: str | None = None,
    n_bootstrap: int = N_BOOTSTRAP,
) -> PairwiseLeaderboard:
    """The pairwise board beside the score board: the same classes and gates, decided by
    the score board's entries of both seats of each pair; eras are fitted apart."""
    mine = [
        v
        for v in verdicts
        if v.key.scenario_id == scenario_id
        and v.trait == trait
        and (era_id is None or v.era_id == era_id)
    ]
    ranked, unranked, left_out = _split_by_board(mine, entries)
    eras = sorted({v.era_id for v in [*ranked, *unranked]})
    mixed = f"verdicts span {len(eras)} pairwise eras; each is fitted and ranked on its own"
    return PairwiseLeaderboard(
        scenario_id=scenario_id,
        trait=trait,
        eras=eras,
        mixed_eras=len(eras) > 1,
        ranked=ratings_by_era(ranked, n_bootstrap=n_bootstrap),
        unranked=ratings_by_era(unranked, n_bootstrap=n_bootstrap, ranked=False),
        n_left_out=left_out,
        note=mixed if len(eras) > 1 else None,
    )


def _split_by_board(
    verdicts: Sequence[PairVerdict], entries: Sequence[LeaderboardEntry]
) -> tuple[list[PairVerdict], list[PairVerdict], int]:
    """Ranked pairs, unranked pairs, and how many pairs have a gated seat or one on no board."""
    on_board = {(e.run_id, e.seat): e for e in unique_entries(entries)}
    ranked: list[PairVerdict] = []
    unranked: list[PairVerdict] = []
    left_out = 0
    for v in verdicts:
        a = on_board.get((v.side_a.run_id, v.side_a.seat))
        b = on_board.get((v.side_b.run_id, v.side_b.seat))
        if a is None or b is None or a.participation_gated or b.participation_gated:
            left_out += 1
            continue
        (ranked if is_ranked(a) and is_ranked(b) else unranked).append(v)
    return ranked, unranked, left_out
