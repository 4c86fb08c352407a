"""View-models of the console pages: plain values the templates print, built from the
store through the service layer (no SQL here, no HTML either)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, NamedTuple

from sqlmodel import Session

from judge.domain.judging import TraitResult
from judge.domain.review import SafetyReviewPublic
from judge.domain.run import Run
from judge.domain.scorecard import Scorecard, SeatScorecard
from judge.scoring.run_summary import pass_spread
from judge.service import reviews as review_service
from judge.service.intake import visible_run
from judge.settings import Settings
from judge.store import scorecards as scorecard_repo
from judge.store.tables import as_utc


class EventView(NamedTuple):
    turn: int
    seat: str
    kind: str
    text: str
    name: str | None
    args: str | None
    status: str | None
    result: str | None


class PassView(NamedTuple):
    number: int
    score: float | None
    rationale: str
    cited: list[int]
    parse_status: str
    unscored_reason: str | None

    @property
    def cited_attr(self) -> str:
        return " ".join(str(t) for t in self.cited)


class TraitView(NamedTuple):
    name: str
    pack: str
    mean: float | None
    variance: float | None
    spread: float | None
    n_passes: int
    n_scored: int
    n_identical: int
    complete: bool
    rubric_source: str
    rubric_version: int
    rubric: dict[str, str]
    passes: list[PassView]


class ConditionView(NamedTuple):
    id: str
    met: bool
    weight: float | None
    credit: float | None


class SeatView(NamedTuple):
    seat: str
    agent_id: str
    composite: float | None
    composite_note: str | None
    objective_rate: float | None
    credit_total: float
    credit_max: float
    conditions: list[ConditionView]
    gated: bool
    participation: dict[str, Any]
    traits: list[TraitView]
    safety: list[TraitView]


class RunPage(NamedTuple):
    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None
    status: str
    reason: str | None
    submitted_by: str
    created_at: datetime
    seats_of_run: list[tuple[str, str, bool]]
    events: list[EventView]
    card: Scorecard | None
    seats: list[SeatView]
    review: SafetyReviewPublic


def _dump(value: Any) -> str | None:
    return (
        None if value is None else json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
    )


def event_views(run: Run) -> list[EventView]:
    views = []
    for event in run.transcript:
        data = event.model_dump()
        views.append(
            EventView(
                turn=event.turn,
                seat=event.seat,
                kind=event.kind,
                text=str(data.get("content", "")),
                name=data.get("name"),
                args=_dump(data.get("args")) if event.kind == "action" else None,
                status=data.get("status"),
                result=_dump(data.get("result")),
            )
        )
    return views


def trait_view(result: TraitResult) -> TraitView:
    return TraitView(
        name=result.trait,
        pack=result.pack,
        mean=result.mean,
        variance=result.variance,
        spread=pass_spread(result),
        n_passes=result.n_passes,
        n_scored=result.n_scored,
        n_identical=result.n_identical,
        complete=result.complete,
        rubric_source=result.rubric_source,
        rubric_version=result.rubric_version,
        rubric=result.rubric,
        passes=[
            PassView(
                p.index, p.score, p.rationale, p.cited_turns, p.parse_status, p.unscored_reason
            )
            for p in result.passes
        ],
    )


def seat_view(seat: SeatScorecard, weights: dict[str, float]) -> SeatView:
    objectives = seat.objectives
    credit = objectives.partial_credit
    return SeatView(
        seat=seat.seat,
        agent_id=seat.agent_id,
        composite=seat.composite,
        composite_note=seat.composite_note,
        objective_rate=objectives.objective_met_rate,
        credit_total=credit.total,
        credit_max=credit.max_possible,
        conditions=[
            ConditionView(cid, met, weights.get(cid), credit.per_condition.get(cid))
            for cid, met in objectives.conditions.items()
        ],
        gated=seat.participation_gated,
        participation=seat.participation.model_dump(),
        traits=[trait_view(t) for t in seat.traits.values()],
        safety=[trait_view(t) for t in (seat.safety_block or {}).values()],
    )


def run_page(session: Session, *, run_id: str, settings: Settings) -> RunPage:
    """Everything the run page shows: transcript, every seat's traits and passes, review."""
    row = visible_run(session, run_id=run_id, agent=None)
    run = Run.model_validate_json(row.body_json)
    card = scorecard_repo.get_scorecard(session, run_id=run_id)
    weights = {c.id: c.weight for c in run.win_conditions}
    return RunPage(
        run_id=row.run_id,
        scenario_id=row.scenario_id,
        seed=row.seed,
        adversary_config=row.adversary_config,
        status=row.status,
        reason=row.reason,
        submitted_by=row.submitted_by,
        created_at=as_utc(row.created_at),
        seats_of_run=[(s.seat, s.agent_id, s.scored) for s in run.seats],
        events=event_views(run),
        card=card,
        seats=[seat_view(s, weights) for s in card.seats.values()] if card else [],
        review=review_service.review_status(session, run_id=run_id, settings=settings),
    )
