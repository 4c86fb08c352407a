"""Scorecards flattened into table rows, one per run x seat x trait and one per pass. The
columns are the contract of ``judge export scorecards`` (docs/export.md): added at the end,
never renamed."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from judge.core.domain.judging import JudgePass, TraitResult

if TYPE_CHECKING:
    from judge.core.domain.scorecard import Scorecard, SeatScorecard

Cell = str | int | float | bool | list[float] | None
Row = dict[str, Cell]

#: The seat's score integrity (docs/integrity.md); empty cells when no detector ran.
TAMPER_COLUMNS = ("tamper_flagged", "tamper_findings", "tamper_kinds", "tamper_detector_version")
#: What judging the seat and the run cost, and the run's estimate (docs/service.md, "Cost and
#: budgets"); dollars empty where a pass had no price, never 0.
COST_COLUMNS = tuple(
    "seat_tokens seat_cost_usd run_tokens run_cost_usd run_estimate_tokens run_estimate_usd".split()
)
RUN_COLUMNS = tuple(
    "run_id scenario_id seed adversary_config seat agent_id judge_model prompt_version era"
    " ranked_eligible leaderboard_class".split()
)
#: A trait's own figures: each column is the :class:`TraitResult` field of the same name.
_RESULT_COLUMNS = tuple(
    "trait pack mean variance variance_kind n_passes n_scored n_unscored n_identical floor"
    " complete rubric_version rubric_hash rubric_source score_mode sampled_mean expected_mean"
    " mean_entropy_bits n_with_distribution score_note".split()
)
TRAIT_COLUMNS = (
    *RUN_COLUMNS,
    "composite",
    "objective_met_rate",
    "participation_gated",
    *_RESULT_COLUMNS,
    "pass_score",
    *TAMPER_COLUMNS,
    *COST_COLUMNS,
)
#: What the judge answered and what the call took: each column is the :class:`JudgePass`
#: field of the same name.
_CALL_COLUMNS = tuple(
    "score parse_status unscored_reason model prompt_tokens cached_prompt_tokens"
    " completion_tokens cost_usd latency_ms attempts".split()
)
#: How the request of each pass was served (docs/export.md, the passes table's last columns):
#: the choices it answered, and the reply format the backend enforced.
SERVING_COLUMNS = ("request_choices", "reply_format")
PASS_COLUMNS = (
    *RUN_COLUMNS,
    "trait",
    "pack",
    "pass_index",
    *_CALL_COLUMNS,
    *"cited_turns rationale raw_output sampled_score expected_score score_distribution"
    " score_entropy_bits distribution_partial structured_output".split(),
    "pass_score",
    *TAMPER_COLUMNS,
    *SERVING_COLUMNS,
)


def _run_cells(card: Scorecard, seat: SeatScorecard) -> Row:
    return {
        "run_id": card.run_id,
        "scenario_id": card.scenario_id,
        "seed": card.seed,
        "adversary_config": card.adversary_config,
        "seat": seat.seat,
        "agent_id": seat.agent_id,
        "judge_model": card.judge_model,
        "prompt_version": card.prompt_version,
        "era": card.measurement_era.era_id,
        "ranked_eligible": card.ranked_eligible,
        "leaderboard_class": card.leaderboard_class,
    }


def _tamper_cells(seat: SeatScorecard) -> Row:
    """Counts and kinds only: an excerpt is the agent's own hostile text, read on the card."""
    found = seat.tamper
    if found is None:
        return dict.fromkeys(TAMPER_COLUMNS)
    return {
        "tamper_flagged": found.flagged,
        "tamper_findings": len(found.findings),
        "tamper_kinds": ";".join(sorted({f.kind for f in found.findings})),
        "tamper_detector_version": found.detector_version,
    }


def _cost_cells(card: Scorecard, seat: SeatScorecard) -> Row:
    run, mine = card.cost, seat.cost
    estimate = run.estimate if run is not None else None
    return {
        "seat_tokens": None if mine is None else mine.tokens,
        "seat_cost_usd": None if mine is None else mine.cost_usd,
        "run_tokens": None if run is None else run.tokens,
        "run_cost_usd": None if run is None else run.cost_usd,
        "run_estimate_tokens": None if estimate is None else estimate.tokens,
        "run_estimate_usd": None if estimate is None else estimate.cost_usd,
    }


def _results(seat: SeatScorecard) -> list[TraitResult]:
    return [*seat.traits.values(), *(seat.safety_block or {}).values()]


def _trait_cells(result: TraitResult) -> Row:
    return {name: getattr(result, name) for name in _RESULT_COLUMNS}


def trait_rows(card: Scorecard) -> list[Row]:
    """One row per scored seat and trait (capability traits, then the safety block)."""
    rows = []
    card_cells: Row = {"pass_score": card.pass_score}
    for seat in card.seats.values():
        seat_cells: Row = {
            **_run_cells(card, seat),
            "composite": seat.composite,
            "objective_met_rate": seat.objectives.objective_met_rate,
            "participation_gated": seat.participation_gated,
        }
        tail = {**_tamper_cells(seat), **_cost_cells(card, seat)}
        rows += [{**seat_cells, **_trait_cells(r), **card_cells, **tail} for r in _results(seat)]
    return rows


def _pass_cells(p: JudgePass) -> Row:
    return {
        "pass_index": p.index,
        **{name: getattr(p, name) for name in _CALL_COLUMNS},
        "cited_turns": json.dumps(p.cited_turns),
        "rationale": p.rationale,
        "raw_output": p.raw_output,
        **_signal_cells(p),
    }


def _signal_cells(p: JudgePass) -> Row:
    """The pass's own signal; the distribution's cells are empty (never 0) when it has none."""
    has = p.score_distribution is not None
    return {
        "sampled_score": p.written_score,
        "expected_score": p.expected_score,
        "score_distribution": p.score_distribution,
        "score_entropy_bits": p.score_entropy_bits,
        "distribution_partial": p.distribution_partial if has else None,
        "structured_output": p.structured_output,
    }


def _serving_cells(p: JudgePass) -> Row:
    """The request's choices, and its reply format: empty when the backend did not say."""
    return {"request_choices": p.request_choices, "reply_format": p.reply_format}


def pass_rows(card: Scorecard) -> list[Row]:
    """One row per judge pass: every seat, trait and pass index, unscored passes included."""
    rows = []
    tail: Row = {"pass_score": card.pass_score}
    for seat in card.seats.values():
        run_cells, seat_tail = _run_cells(card, seat), {**tail, **_tamper_cells(seat)}
        for result in _results(seat):
            head: Row = {**run_cells, "trait": result.trait, "pack": result.pack}
            rows += [
                {**head, **_pass_cells(p), **seat_tail, **_serving_cells(p)} for p in result.passes
            ]
    return rows


#: The type of every column (what parquet stores; CSV cells are text, a list as a JSON array):
#: text unless listed below.
COLUMN_TYPES: dict[str, type] = {
    **dict.fromkeys((*TRAIT_COLUMNS, *PASS_COLUMNS), str),
    **dict.fromkeys(
        "seed prompt_version n_passes n_scored n_unscored n_identical floor rubric_version"
        " pass_index prompt_tokens cached_prompt_tokens completion_tokens attempts"
        " request_choices n_with_distribution tamper_findings seat_tokens run_tokens"
        " run_estimate_tokens".split(),
        int,
    ),
    **dict.fromkeys(
        "composite objective_met_rate mean variance score cost_usd latency_ms sampled_mean"
        " expected_mean mean_entropy_bits sampled_score expected_score score_entropy_bits"
        " seat_cost_usd run_cost_usd run_estimate_usd".split(),
        float,
    ),
    **dict.fromkeys(
        "ranked_eligible participation_gated complete distribution_partial structured_output"
        " tamper_flagged".split(),
        bool,
    ),
    # eleven probabilities on the grid 0.0 ... 1.0 (judge.engine.judging.score_grid.GRID)
    "score_distribution": list,
}
