"""Selective escalation (owner only, docs/escalation.md): each trait's target set against the
owners' labels, the threshold chosen on a selection split and proved on a held-out one, and
who decides each seat-trait of a card. Kept under the platform_config key
:data:`CONFIG_KEY` (its version and audit trail are the config table's), outside the
measurement era: a threshold changes who decides, never a score."""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from judge.core.domain.escalation import (
    CurvePoint,
    Decision,
    EscalationTargetCreate,
    TraitEscalation,
)
from judge.core.domain.judging import TraitResult
from judge.core.domain.labels import Label
from judge.core.domain.scorecard import Scorecard
from judge.core.errors import InputError, NotFoundError
from judge.core.scoring import escalation as rules
from judge.core.scoring.escalation import JudgedItem
from judge.server.service.labels import label_of, scored_card
from judge.server.store import config as config_repo
from judge.server.store import labels as label_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store.db import lock_for_write
from judge.server.store.tables import utcnow

CONFIG_KEY = "eval_escalation"
_LOCK = "judge:escalation"


class StoredEscalations(BaseModel):
    """The stored value: each trait's escalation, by trait name."""

    model_config = ConfigDict(extra="forbid")

    traits: dict[str, TraitEscalation] = Field(default_factory=dict)


def stored(session: Session) -> StoredEscalations:
    """Every trait's stored escalation (none before an owner sets a target)."""
    row = config_repo.get_config(session, key=CONFIG_KEY)
    if row is None:
        return StoredEscalations()
    return StoredEscalations.model_validate_json(row.value_json)


def owners_means(labels: list[Label]) -> dict[tuple[str, str], float]:
    """Per (run, seat): the mean of each owner's latest label."""
    latest = {(lab.run_id, lab.seat, lab.labelled_by): lab.score for lab in labels}
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    for (run_id, seat, _), score in latest.items():
        scores[(run_id, seat)].append(score)
    return {key: sum(v) / len(v) for key, v in scores.items()}


def labelled_items(
    session: Session, *, trait: str, cards: dict[str, Scorecard | None] | None = None
) -> list[JudgedItem]:
    """Every labelled seat of ``trait`` against the current card of its run (an item whose
    card has no verdict on it is left out), in label order; ``cards`` keeps the cards read
    across calls."""
    labels = [label_of(r) for r in label_repo.all_labels(session, traits=[trait])]
    cards = {} if cards is None else cards
    items = []
    for (run_id, seat), owners in owners_means(labels).items():
        if run_id not in cards:
            cards[run_id] = scorecard_repo.get_scorecard(session, run_id=run_id)
        card = cards[run_id]
        result = None if card is None else seat_results(card, seat).get(trait)
        if result is None or result.mean is None:
            continue
        sure = rules.result_confidence(result).value
        items.append(JudgedItem(run_id, seat, result.mean, owners, sure))
    return items


def seat_results(card: Scorecard, seat: str) -> dict[str, TraitResult]:
    """A seat's scored traits, the safety block's included (empty for an unknown seat)."""
    found = card.seats.get(seat)
    return {} if found is None else found.every_trait


def _note(chosen: rules.Chosen, body: EscalationTargetCreate, n_selection: int) -> str:
    if chosen.threshold is not None:
        return (
            f"agreement on the kept items is at least {body.target:g} with chance "
            f"{1 - body.risk:g} at coverage {chosen.coverage:.2f} of the selection split"
        )
    floor = rules.fewest_kept(body.target, body.risk)
    if n_selection < floor:
        return (
            f"target {body.target:g} not reachable: the selection split holds {n_selection} "
            f"labelled items and a bound at {1 - body.risk:g} needs at least {floor} kept; "
            "every item escalates (coverage 0) until more are labelled"
        )
    return (
        f"target {body.target:g} not reachable: keeping the surest {floor} or more items "
        f"(coverage {chosen.coverage:.2f}) bounds their agreement at {chosen.bound:.2f}, below "
        "the target, and the search stops at the first threshold that fails: the judge's surest "
        "verdicts are not right often enough to vouch for, so every item escalates (coverage 0)"
    )


def evaluate(
    items: list[JudgedItem],
    *,
    trait: str,
    body: EscalationTargetCreate,
    by: str,
    measure: str | None = None,
) -> TraitEscalation:
    """The threshold the selection split supports and its figures on both splits; ``measure``
    names the agreement when it is not the owners' anchor agreement (a calibration set's
    scale). Pure: a calibration set's figures are printed from it, never stored."""
    split = rules.split_by_run(items, body.seed)
    named = {} if measure is None else {"measure": measure}
    chosen = rules.choose_threshold(split.selection, body.target, body.risk)
    held = rules.figures(split.held_out, chosen.threshold, body.risk)
    return TraitEscalation(
        trait=trait,
        target=body.target,
        risk=body.risk,
        seed=body.seed,
        threshold=chosen.threshold,
        reachable=chosen.threshold is not None,
        note=_note(chosen, body, len(split.selection)),
        selection=rules.figures(split.selection, chosen.threshold, body.risk),
        held_out=held,
        held_out_meets_target=held.agreement is not None and held.agreement >= body.target,
        curve_selection=rules.curve(split.selection),
        curve_held_out=rules.curve(split.held_out),
        set_by=by,
        set_at=utcnow(),
        **named,
    )


def _put(session: Session, value: StoredEscalations, by: str) -> None:
    config_repo.put_config(
        session, key=CONFIG_KEY, value_json=value.model_dump_json(), changed_by=by
    )


def set_target(
    session: Session, *, trait: str, body: EscalationTargetCreate, by: str
) -> TraitEscalation:
    """Choose and store the trait's threshold for the owner's target (InputError: no
    labelled item of the trait has a verdict on its run's current card)."""
    items = labelled_items(session, trait=trait)
    if not items:
        known = sorted({r.trait for r in label_repo.all_labels(session)})
        raise InputError(
            f"trait: no labelled item of {trait!r} has a verdict on its run's current card; "
            f"label some first (labelled traits: {known})"
        )
    found = evaluate(items, trait=trait, body=body, by=by)
    lock_for_write(session, name=_LOCK)
    value = stored(session)
    value.traits[trait] = found
    _put(session, value, by)
    return found


def remove_target(session: Session, *, trait: str, by: str) -> None:
    """Drop the trait's target: its items are decided by the card's judge again."""
    lock_for_write(session, name=_LOCK)
    value = stored(session)
    if trait not in value.traits:
        raise NotFoundError(
            f"no escalation target for trait {trait!r}; set: {sorted(value.traits)}"
        )
    del value.traits[trait]
    _put(session, value, by)


def card_decisions(card: Scorecard, value: StoredEscalations) -> list[Decision]:
    """Who decided each seat-trait of ``card``."""
    return [
        rules.decide(seat, result, card.judge_model, value.traits.get(result.trait))
        for seat in card.seats
        for result in seat_results(card, seat).values()
    ]


def run_decisions(session: Session, *, run_id: str) -> list[Decision]:
    """Who decided each seat-trait of the run's current card (ConflictError: not scored)."""
    return card_decisions(scored_card(session, run_id=run_id), stored(session))


def to_owners(card: Scorecard, value: StoredEscalations) -> list[Decision]:
    """The card's seat-traits left to the owners' labels."""
    if not value.traits:
        return []
    return [d for d in card_decisions(card, value) if d.escalated_to == "owners"]


def live_curves(session: Session, *, seed: int = 0) -> dict[str, rules.Split]:
    """Per labelled trait, its items split by run (the stored seed where a target is set)."""
    value = stored(session)
    out = {}
    cards: dict[str, Scorecard | None] = {}
    for trait in sorted({r.trait for r in label_repo.all_labels(session)}):
        chosen = value.traits.get(trait)
        if items := labelled_items(session, trait=trait, cards=cards):
            out[trait] = rules.split_by_run(items, seed if chosen is None else chosen.seed)
    return out


class TraitCurves(NamedTuple):
    """What the agreement page draws for one labelled trait: its stored target (None: none
    set) and its coverage-agreement curves on today's labels, split by the stored seed."""

    trait: str
    stored: TraitEscalation | None
    selection: list[CurvePoint]
    held_out: list[CurvePoint]


def trait_curves(session: Session) -> list[TraitCurves]:
    """Per labelled trait, in name order: the curves the console's agreement page draws."""
    value = stored(session)
    return [
        TraitCurves(
            trait,
            value.traits.get(trait),
            rules.curve(split.selection),
            rules.curve(split.held_out),
        )
        for trait, split in live_curves(session).items()
    ]
