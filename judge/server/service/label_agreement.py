"""The judge's agreement with the owners' labels, live, by the code of `judge calibrate`, and
drift between eras (docs/calibration.md, "Agreement, live" and "Drift")."""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.labels import Label
from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.owners import (
    EraDrift,
    LiveAgreement,
    card_passes,
    era_drift,
    owner_items,
)
from judge.engine.calibration.owners_cache import AGREEMENTS
from judge.engine.settings import Settings
from judge.server.service import reviews as review_service
from judge.server.service.label_queue import picks, queue_rules
from judge.server.service.labels import label_of
from judge.server.store import eras as era_repo
from judge.server.store import labels as label_repo
from judge.server.store.db import transaction


class OwnersSet(NamedTuple):
    """Everything the agreement reads: the labelled runs, their labels and every card each
    run had, by era (a rescore in the same era keeps the newest card)."""

    runs: dict[str, Run]
    labels: list[Label]
    items: list[CalibrationItem]
    cards: dict[str, dict[str, Scorecard]]
    era_order: list[str]


def owners_set(session: Session) -> OwnersSet:
    labels = [label_of(r) for r in label_repo.all_labels(session)]
    run_ids = sorted({lab.run_id for lab in labels})
    runs = {
        r: Run.model_validate_json(body)
        for r, body in label_repo.run_bodies(session, run_ids=run_ids).items()
    }
    cards: dict[str, dict[str, Scorecard]] = defaultdict(dict)
    for run_id, text in label_repo.cards_of(session, run_ids=run_ids):
        card = Scorecard.model_validate_json(text)
        cards[card.measurement_era.era_id][run_id] = card
    known = [e.era_id for e in era_repo.list_eras(session)]
    order = [e for e in known if e in cards] + sorted(set(cards) - set(known))
    return OwnersSet(runs, labels, owner_items(runs, labels), dict(cards), order)


def _weights(
    cards: dict[str, Scorecard], session: Session, settings: Settings
) -> dict[tuple[str, str], dict[str, float]]:
    """Per (run, seat), per trait: the inverse inclusion probability of the queue's pick (an
    item the queue would not pick weighs 0 in the weighted figures)."""
    rules = queue_rules(session, settings=settings)
    below = review_service.thresholds(session, settings=settings).safety_below
    out: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for card in cards.values():
        for seat, result, chosen in picks(card, rules, below):
            out[(card.run_id, seat.seat)][result.trait] = chosen.weight
    return out


def traits_of(items: list[CalibrationItem]) -> list[str]:
    return sorted({lab.label for i in items for lab in i.labels})


def agreement_of(
    found: OwnersSet,
    era_id: str,
    trait: str,
    run_ids: set[str],
    weights: dict[tuple[str, str], dict[str, float]] | None,
) -> LiveAgreement | None:
    cards = found.cards[era_id]
    items = [i for i in found.items if i.item_id in run_ids and i.item_id in cards]
    items = [i for i in items if any(lab.label == trait for lab in i.labels)]
    if not items:
        return None
    return AGREEMENTS.agreement(
        items,
        card_passes(cards.values()),
        trait=trait,
        era_id=era_id,
        judge_model=cards[items[0].item_id].judge_model,
        weights=None
        if weights is None
        else {key: w[trait] for key, w in weights.items() if trait in w},
    )


def live_agreement(session: Session, *, settings: Settings) -> list[LiveAgreement]:
    """Per era (oldest first) and trait: the judge against the owners on the era's items."""
    found = owners_set(session)
    out = []
    for era_id in found.era_order:
        weights = _weights(found.cards[era_id], session, settings)
        for trait in traits_of(found.items):
            result = agreement_of(found, era_id, trait, set(found.cards[era_id]), weights)
            if result is not None:
                out.append(result)
    return out


def era_trait_agreement(
    session: Session, *, settings: Settings, era_id: str, trait: str
) -> LiveAgreement | None:
    """One era's agreement on one trait (what one plot of the console draws)."""
    found = owners_set(session)
    if era_id not in found.cards:
        return None
    weights = _weights(found.cards[era_id], session, settings)
    return agreement_of(found, era_id, trait, set(found.cards[era_id]), weights)


def drift(session: Session) -> list[EraDrift]:
    """Each era against the era before it, per trait, on the items labelled and judged in both."""
    found = owners_set(session)
    out = []
    for older, newer in zip(found.era_order, found.era_order[1:], strict=False):
        common = set(found.cards[older]) & set(found.cards[newer])
        for trait in traits_of(found.items):
            before = agreement_of(found, older, trait, common, None)
            now = agreement_of(found, newer, trait, common, None)
            if before is not None and now is not None:
                out.append(era_drift(now, before))
    return out


def stored_drift(engine: Engine) -> list[EraDrift]:
    """:func:`drift` in a read of its own (what ``/metrics`` reads at scrape time)."""
    with transaction(engine) as session:
        return drift(session)
