"""View-models of the console pages: plain values the templates print, built from the
store through the service layer (no SQL here, no HTML either)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, NamedTuple

from sqlmodel import Session

from judge.console.highlights import EventMarks, TextPart, split_text, withheld_by_event
from judge.console.reports import trusted_judges
from judge.domain.judging import JudgePass, PanelAgreement, TraitResult
from judge.domain.labels import Label
from judge.domain.review import SafetyReview
from judge.domain.run import Run
from judge.domain.scorecard import Scorecard, SeatScorecard
from judge.domain.tamper import SeatTamper
from judge.scoring.run_summary import flag_reasons, pass_range
from judge.service import labels as label_service
from judge.service import reviews as review_service
from judge.service import summaries
from judge.service.intake import visible_run
from judge.service.summaries import as_utc
from judge.settings import Settings


class EventView(NamedTuple):
    turn: int
    seat: str
    kind: str
    text: str
    name: str | None
    args: str | None
    status: str | None
    result: str | None
    #: the text in pieces, the withheld ones marked (docs/console.md)
    parts: tuple[TextPart, ...] = ()
    #: an action's name or arguments were withheld: the whole event is marked
    withheld: bool = False


class PassView(NamedTuple):
    number: int
    score: float | None
    rationale: str
    cited: list[int]
    parse_status: str
    unscored_reason: str | None
    model: str
    sampled_score: float | None
    expected_score: float | None
    entropy_bits: float | None
    partial: bool

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
    sampled_mean: float | None
    expected_mean: float | None
    mean_entropy_bits: float | None
    n_with_distribution: int
    score_note: str | None
    judge_means: dict[str, float | None]
    passes_note: str | None = None

    @property
    def shows_signal(self) -> bool:
        """Whether there is anything beyond the sampled mean to say (as the CLI decides)."""
        return bool(self.n_with_distribution or self.score_note)


class PanelRow(NamedTuple):
    """One trait of a panel: each judge's mean, and the panel mean (the mean of those)."""

    trait: str
    pack: str
    means: list[float | None]
    panel_mean: float | None


class PanelView(NamedTuple):
    """A judge panel's agreement on one seat (owner-only: it spans the safety traits)."""

    judges: list[str]
    alpha: float | None
    n_traits: int
    worst_trait: str | None
    worst_spread: float | None
    worst_means: dict[str, float]
    rows: list[PanelRow]


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
    panel: PanelView | None
    #: judge-directed text found in the seat's events (owner-only), when any
    tamper: SeatTamper | None = None


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
    review: SafetyReview
    #: flagged, but by a judge without a calibration on record above the floor (no alarm)
    weak_judge: bool
    #: the owners' labels of each (seat, trait), oldest first
    labels: dict[tuple[str, str], list[Label]]


def _dump(value: Any) -> str | None:
    return (
        None if value is None else json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
    )


def event_views(run: Run, card: Scorecard | None = None) -> list[EventView]:
    """The transcript's events, with what the judge did not read marked."""
    marks, views = withheld_by_event(card), []
    for index, event in enumerate(run.transcript):
        data = event.model_dump()
        text = str(data.get("content", ""))
        mark = marks.get(index, EventMarks([], False))
        views.append(
            EventView(
                turn=event.turn,
                seat=event.seat,
                kind=event.kind,
                text=text,
                name=data.get("name"),
                args=_dump(data.get("args")) if event.kind == "action" else None,
                status=data.get("status"),
                result=_dump(data.get("result")),
                parts=tuple(split_text(text, mark.ranges)),
                withheld=mark.other_field,
            )
        )
    return views


def pass_view(p: JudgePass) -> PassView:
    return PassView(
        number=p.index,
        score=p.score,
        rationale=p.rationale,
        cited=p.cited_turns,
        parse_status=p.parse_status,
        unscored_reason=p.unscored_reason,
        model=p.model,
        sampled_score=p.written_score,
        expected_score=p.expected_score,
        entropy_bits=p.score_entropy_bits,
        partial=p.distribution_partial,
    )


def trait_view(result: TraitResult) -> TraitView:
    return TraitView(
        name=result.trait,
        pack=result.pack,
        mean=result.mean,
        variance=result.variance,
        spread=pass_range(result),
        n_passes=result.n_passes,
        n_scored=result.n_scored,
        n_identical=result.n_identical,
        complete=result.complete,
        rubric_source=result.rubric_source,
        rubric_version=result.rubric_version,
        rubric=result.rubric,
        passes=[pass_view(p) for p in result.passes],
        sampled_mean=result.sampled_mean,
        expected_mean=result.expected_mean,
        mean_entropy_bits=result.mean_entropy_bits,
        n_with_distribution=result.n_with_distribution,
        score_note=result.score_note,
        judge_means={j.model: j.mean for j in result.judges},
        passes_note=f"{result.adaptive.passes} passes: {result.adaptive.note}"
        if result.adaptive
        else None,
    )


def panel_view(panel: PanelAgreement, traits: list[TraitView]) -> PanelView:
    """The panel table: a row per trait (capability, then safety), a column per judge."""
    return PanelView(
        judges=panel.judges,
        alpha=panel.alpha_interval,
        n_traits=panel.n_traits,
        worst_trait=panel.largest_disagreement_trait,
        worst_spread=panel.largest_disagreement,
        worst_means=panel.largest_disagreement_means,
        rows=[
            PanelRow(t.name, t.pack, [t.judge_means.get(j) for j in panel.judges], t.mean)
            for t in traits
        ],
    )


def seat_view(seat: SeatScorecard, weights: dict[str, float]) -> SeatView:
    objectives = seat.objectives
    credit = objectives.partial_credit
    traits = [trait_view(t) for t in seat.traits.values()]
    safety = [trait_view(t) for t in (seat.safety_block or {}).values()]
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
        traits=traits,
        safety=safety,
        panel=panel_view(seat.panel, traits + safety) if seat.panel else None,
        tamper=seat.tamper if seat.tamper and seat.tamper.flagged else None,
    )


def weak_judge_flag(review: SafetyReview, judge_model: str | None) -> bool:
    """The run's safety figures cross a threshold, but its judge is not trusted to score safety
    (withheld judge-directed text is no safety figure: it stays an alarm whatever the judge)."""
    limits = review.thresholds
    crossed = flag_reasons(review.safety_min, review.safety_spread, limits)
    return bool(crossed) and judge_model not in trusted_judges(limits)


def run_page(session: Session, *, run_id: str, settings: Settings) -> RunPage:
    """Everything the run page shows: transcript, every seat's traits and passes, review."""
    row = visible_run(session, run_id=run_id, agent=None)
    run = Run.model_validate_json(row.body_json)
    card = summaries.get_scorecard(session, run_id=run_id)
    weights = {c.id: c.weight for c in run.win_conditions}
    review = review_service.review_status(session, run_id=run_id, settings=settings)
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
        events=event_views(run, card),
        card=card,
        seats=[seat_view(s, weights) for s in card.seats.values()] if card else [],
        review=review,
        weak_judge=weak_judge_flag(review, row.judge_model),
        labels=labels_by_item(label_service.run_labels(session, run_id=run_id)),
    )


def labels_by_item(labels: list[Label]) -> dict[tuple[str, str], list[Label]]:
    out: dict[tuple[str, str], list[Label]] = {}
    for lab in labels:
        out.setdefault((lab.seat, lab.trait), []).append(lab)
    return out
