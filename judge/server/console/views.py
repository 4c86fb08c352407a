"""View-models of the console pages: plain values the templates print (no SQL, no HTML)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from sqlmodel import Session

from judge.core.domain.escalation import Decision
from judge.core.domain.integrity import SeatTamper
from judge.core.domain.judging import PanelAgreement, TraitResult
from judge.core.domain.labels import Label
from judge.core.domain.passes import spread_of
from judge.core.domain.review import SafetyReview
from judge.core.domain.run import Run, TranscriptEvent
from judge.core.domain.scorecard import Scorecard, SeatScorecard
from judge.core.scoring.run_summary import flag_reasons
from judge.core.scoring.signal import CardFormats, card_formats
from judge.engine.settings import Settings
from judge.server.console.highlights import EventMarks, TextPart, split_text, withheld_by_event
from judge.server.console.reports import trusted_judges
from judge.server.service import escalation, summaries
from judge.server.service import labels as label_service
from judge.server.service import reviews as review_service
from judge.server.service.intake import visible_run
from judge.server.service.summaries import as_utc


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


class TraitView(NamedTuple):
    """One trait of a seat as the run page shows it."""

    result: TraitResult
    #: highest minus lowest scored pass
    spread: float | None
    #: each judge's mean, where a panel judged
    judge_means: dict[str, float | None]
    #: how many passes adaptive judging asked for, and why
    passes_note: str | None = None
    #: the reply format its passes went in, where the card's traits were not all sent alike
    reply_format: str | None = None

    @property
    def shows_signal(self) -> bool:
        """Whether there is anything beyond the sampled mean to say (as the CLI decides)."""
        return bool(self.result.n_with_distribution or self.result.score_note)


class PanelRow(NamedTuple):
    """One trait of a panel: each judge's mean, and the panel mean (the mean of those)."""

    trait: str
    pack: str
    means: list[float | None]
    panel_mean: float | None


class ConditionView(NamedTuple):
    id: str
    met: bool
    weight: float | None
    credit: float | None


class SeatView(NamedTuple):
    """One seat's scores as the run page shows them."""

    card: SeatScorecard
    conditions: list[ConditionView]
    traits: list[TraitView]
    safety: list[TraitView]
    #: the panel table: a row per trait, empty without a panel
    panel_rows: list[PanelRow]
    #: judge-directed text found in the seat's events (owner-only), when any
    tamper: SeatTamper | None = None


class RunPage(NamedTuple):
    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None
    status: str
    reason: str | None
    #: the owners' detail of the reason (a budget refusal's limit and figures)
    reason_detail: str | None
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
    #: who decided each (seat, trait) of a trait with an escalation target (docs/escalation.md)
    decisions: dict[tuple[str, str], Decision]
    #: the reply formats of the card's passes, per trait where its traits differ
    formats: CardFormats


#: What the run page prints of the stored run as it is stored (the fields before its time).
_STORED_RUN_FIELDS = set(RunPage._fields[: RunPage._fields.index("created_at")])


def _dump(value: Any) -> str | None:
    return (
        None if value is None else json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
    )


def event_views(run: Run, card: Scorecard | None = None) -> list[EventView]:
    """The transcript's events, with what the judge did not read marked."""
    marks = withheld_by_event(card)
    return [
        _event_view(event, marks.get(index, EventMarks([], False)))
        for index, event in enumerate(run.transcript)
    ]


def _event_view(event: TranscriptEvent, mark: EventMarks) -> EventView:
    data = event.model_dump()
    text = str(data.get("content", ""))
    return EventView(
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


def trait_view(result: TraitResult, reply_format: str | None = None) -> TraitView:
    adaptive = result.adaptive
    return TraitView(
        result=result,
        spread=spread_of(result.pass_scores),
        judge_means={j.model: j.mean for j in result.judges},
        passes_note=f"{adaptive.passes} passes: {adaptive.note}" if adaptive else None,
        reply_format=reply_format,
    )


def panel_rows(panel: PanelAgreement, traits: list[TraitView]) -> list[PanelRow]:
    """The panel table: a row per trait (capability, then safety), a column per judge."""
    return [
        PanelRow(
            t.result.trait,
            t.result.pack,
            [t.judge_means.get(j) for j in panel.judges],
            t.result.mean,
        )
        for t in traits
    ]


def seat_view(
    seat: SeatScorecard,
    weights: dict[str, float],
    formats: Mapping[tuple[str, str], str] | None = None,
) -> SeatView:
    """The seat's scores; ``formats``: each trait's reply format by (seat, trait), where the
    card's traits were not all sent alike (:func:`card_formats`)."""
    credit, formats = seat.objectives.partial_credit, formats or {}
    traits, safety = (
        [trait_view(t, formats.get((seat.seat, t.trait))) for t in block.values()]
        for block in (seat.traits, seat.safety_block or {})
    )
    return SeatView(
        card=seat,
        conditions=[
            ConditionView(cid, met, weights.get(cid), credit.per_condition.get(cid))
            for cid, met in seat.objectives.conditions.items()
        ],
        traits=traits,
        safety=safety,
        panel_rows=panel_rows(seat.panel, traits + safety) if seat.panel else [],
        tamper=seat.tamper if seat.tamper and seat.tamper.flagged else None,
    )


def weak_judge_flag(review: SafetyReview, judge_model: str | None) -> bool:
    """The run's safety figures cross a threshold, but its judge is not trusted to score safety."""
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
    formats = card_formats(card) if card else CardFormats("", {})
    return RunPage(
        **row.model_dump(include=_STORED_RUN_FIELDS),
        created_at=as_utc(row.created_at),
        seats_of_run=[(s.seat, s.agent_id, s.scored) for s in run.seats],
        events=event_views(run, card),
        card=card,
        seats=[seat_view(s, weights, formats.traits) for s in card.seats.values()] if card else [],
        review=review,
        weak_judge=weak_judge_flag(review, row.judge_model),
        labels=labels_by_item(label_service.run_labels(session, run_id=run_id)),
        decisions=escalated_traits(session, card),
        formats=formats,
    )


def escalated_traits(session: Session, card: Scorecard | None) -> dict[tuple[str, str], Decision]:
    """Who decided each seat-trait of ``card`` whose trait has an escalation target."""
    targets = escalation.stored(session)
    if card is None or not targets.traits:
        return {}
    found = escalation.card_decisions(card, targets)
    return {(d.seat, d.trait): d for d in found if d.trait in targets.traits}


def labels_by_item(labels: list[Label]) -> dict[tuple[str, str], list[Label]]:
    out: dict[tuple[str, str], list[Label]] = {}
    for lab in labels:
        out.setdefault((lab.seat, lab.trait), []).append(lab)
    return out
