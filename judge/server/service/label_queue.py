"""The labelling queue (owner only): recent seat-traits worth an owner's label, with why
(rules: judge/core/scoring/labelling.py; docs/calibration.md, "The queue")."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from sqlmodel import Session

from judge.core.domain.judging import TraitResult
from judge.core.domain.labels import QueueItem
from judge.core.domain.passes import spread_of
from judge.core.domain.scorecard import Scorecard, SeatScorecard
from judge.core.scoring.labelling import ItemFigures, Pick, QueueRules, pick
from judge.engine.settings import Settings
from judge.server.service import escalation
from judge.server.service import reviews as review_service
from judge.server.store import labels as label_repo

#: How many of the newest scorecards the queue reads.
RECENT_CARDS = 500


def queue_rules(session: Session, *, settings: Settings) -> QueueRules:
    """The queue's rules: ranges wider than the safety review's spread threshold count."""
    limits = review_service.thresholds(session, settings=settings)
    return QueueRules(spread_above=limits.spread_above, panel_spread_above=limits.spread_above)


def figures(
    card: Scorecard,
    seat: SeatScorecard,
    result: TraitResult,
    rules: QueueRules,
    safety_below: float,
) -> ItemFigures:
    """What the queue reads of one seat-trait: the safety review's threshold counts too for
    a safety trait, and the expected score is read where the card has it."""
    thresholds = (*rules.thresholds, safety_below) if result.pack == "safety" else rules.thresholds
    return ItemFigures(
        key=f"{card.run_id}\x1f{seat.seat}\x1f{result.trait}",
        pass_scores=result.pass_scores,
        judge_means=[j.mean for j in result.judges if j.mean is not None],
        score=result.expected_mean if result.expected_mean is not None else result.mean,
        thresholds=thresholds,
        tamper=bool(seat.tamper and seat.tamper.flagged),
    )


def picks(
    card: Scorecard, rules: QueueRules, safety_below: float
) -> Iterator[tuple[SeatScorecard, TraitResult, Pick]]:
    """The card's seat-traits the queue picks, with the pick."""
    for seat in card.seats.values():
        for result in seat.every_trait.values():
            chosen = pick(figures(card, seat, result, rules, safety_below), rules)
            if chosen is not None:
                yield seat, result, chosen


def labelling_queue(session: Session, *, settings: Settings, limit: int = 100) -> list[QueueItem]:
    """The queue over the newest scorecards: the least-labelled first, targeted items before
    the uniform sample, the most reasons first."""
    rules = queue_rules(session, settings=settings)
    below = review_service.thresholds(session, settings=settings).safety_below
    counts = label_repo.label_counts(session)
    cards = [
        Scorecard.model_validate_json(t)
        for t in label_repo.recent_cards(session, limit=RECENT_CARDS)
    ]
    items = [
        _queue_item(card, seat, result, chosen, counts)
        for card in cards
        for seat, result, chosen in picks(card, rules, below)
    ]
    items = with_escalated(items, cards, escalation.stored(session), counts)
    items.sort(key=lambda i: (i.n_labels, i.inclusion_probability < 1, -len(i.reasons)))
    return items[:limit]


def with_escalated(
    items: list[QueueItem],
    cards: list[Scorecard],
    targets: escalation.StoredEscalations,
    counts: Mapping[tuple[str, str, str], int],
) -> list[QueueItem]:
    """``items`` with each seat-trait escalated to the owners (docs/escalation.md) marked
    ``low_judge_confidence``: added to its pick's reasons, or offered on its own (picked
    with certainty) when the queue's rules passed it by."""
    index = {(i.run_id, i.seat, i.trait): n for n, i in enumerate(items)}
    out = list(items)
    for card in cards:
        for decision in escalation.to_owners(card, targets):
            key = (card.run_id, decision.seat, decision.trait)
            if key in index:
                item = out[index[key]]
                reasons = [*item.reasons, "low_judge_confidence"]
                out[index[key]] = item.model_copy(update={"reasons": reasons})
                continue
            result = escalation.seat_results(card, decision.seat)[decision.trait]
            out.append(_queue_item(card, card.seats[decision.seat], result, _ESCALATED, counts))
    return out


_ESCALATED = Pick(["low_judge_confidence"], 1.0)


def _queue_item(
    card: Scorecard,
    seat: SeatScorecard,
    result: TraitResult,
    chosen: Pick,
    counts: Mapping[tuple[str, str, str], int],
) -> QueueItem:
    return QueueItem(
        run_id=card.run_id,
        seat=seat.seat,
        trait=result.trait,
        judge_mean=result.mean,
        spread=spread_of(result.pass_scores),
        reasons=chosen.reasons,
        inclusion_probability=chosen.inclusion_probability,
        weight=chosen.weight,
        n_labels=counts.get((card.run_id, seat.seat, result.trait), 0),
    )
