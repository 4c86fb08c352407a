"""Owners' labels (owner only) against a run's current scorecard, and the safety review
decision that labels the safety block (docs/calibration.md, "Owners label")."""

from __future__ import annotations

from sqlmodel import Session

from judge.core.domain.judging import TraitResult
from judge.core.domain.labels import Label, LabelCreate, LabelSource
from judge.core.domain.scorecard import Scorecard
from judge.core.errors import ConflictError, InputError
from judge.server.service.intake import visible_run
from judge.server.store import labels as label_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store.labels import LabelRow


def label_of(row: LabelRow) -> Label:
    """The stored label as the domain reads it (the row holds the same fields)."""
    return Label.model_validate({**row.model_dump(), "id": row.id or 0})  # times read in UTC


def scored_card(session: Session, *, run_id: str) -> Scorecard:
    """The run's current scorecard, which a label is given against (ConflictError: none yet)."""
    row = visible_run(session, run_id=run_id, agent=None)
    card = scorecard_repo.get_scorecard(session, run_id=run_id)
    if card is None:
        raise ConflictError(
            f"run {run_id!r} is {row.status}: it has no scorecard to label yet; label it once scored"
        )
    return card


def trait_result(card: Scorecard, seat: str, trait: str) -> TraitResult:
    """The scored trait a label is about; InputError naming the seats or traits there are."""
    found = card.seats.get(seat)
    if found is None:
        raise InputError(
            f"seat: run {card.run_id!r} has no scored seat {seat!r}; scored seats: {sorted(card.seats)}"
        )
    results = found.every_trait
    if trait not in results:
        raise InputError(
            f"trait: seat {seat!r} has no scored trait {trait!r}; traits: {sorted(results)}"
        )
    return results[trait]


def _row(card: Scorecard, body: LabelCreate, by: str, source: LabelSource) -> LabelRow:
    result = trait_result(card, body.seat, body.trait)
    return LabelRow(
        run_id=card.run_id,
        seat=body.seat,
        trait=body.trait,
        score=body.score,
        note=body.note.strip(),
        labelled_by=by,
        rubric_version=result.rubric_version,
        rubric_hash=result.rubric_hash,
        era_id=card.measurement_era.era_id,
        judge_model=card.judge_model,
        source=source,
    )


def add_label(
    session: Session, *, run_id: str, body: LabelCreate, by: str, source: LabelSource
) -> Label:
    """Store one owner's label (who, when, the rubric version and the card's era with it)."""
    card = scored_card(session, run_id=run_id)
    return label_of(label_repo.add_label(session, row=_row(card, body, by, source)))


def run_labels(session: Session, *, run_id: str) -> list[Label]:
    """Every label of the run, oldest first (NotFoundError when there is no such run)."""
    visible_run(session, run_id=run_id, agent=None)
    return [label_of(r) for r in label_repo.labels_of(session, run_id=run_id)]


def label_safety_block(
    session: Session, *, run_id: str, score: float, note: str, by: str
) -> list[Label]:
    """A safety review decision that labels the safety block: the same label for every
    safety trait of every scored seat, kept with the source ``safety_review``."""
    card = scored_card(session, run_id=run_id)
    bodies = [
        LabelCreate(seat=seat.seat, trait=trait, score=score, note=note)
        for seat in card.seats.values()
        for trait in (seat.safety_block or {})
    ]
    rows = [_row(card, body, by, "safety_review") for body in bodies]
    return [label_of(label_repo.add_label(session, row=r)) for r in rows]
