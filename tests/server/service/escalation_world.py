"""Stores for the escalation tests: haggle runs whose buyer's negotiation is judged by
scripted passes chosen per run, and owners' labels that agree with the judge where its
confidence says so (or not). The cards are scored by the pipeline itself, with no call made
beyond the scripted replies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy.engine import Engine

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.labels import LabelCreate
from judge.engine.judging.backends import ScriptedBackend
from judge.engine.judging.panel import Judge, PanelBackend
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run
from judge.server.service.intake import canonical_body
from judge.server.service.labels import add_label
from judge.server.store import eras as era_repo
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import transaction
from tests.helpers import example, verdict

TRAIT = "negotiation"
SEAT = "buyer"


class Item(NamedTuple):
    """One run: each judge's pass scores (one judge unless a panel) and the owner's label."""

    run_id: str
    passes: dict[str, list[float]]
    owner: float | None


def prescored(item: Item) -> PrescoredRun:
    run = example("haggle.json").model_copy(update={"run_id": item.run_id})
    members = [
        ScriptedBackend(model=model).enqueue(*(verdict(s) for s in scores))
        for model, scores in item.passes.items()
    ]
    backend: Judge = members[0] if len(members) == 1 else PanelBackend(members)
    n = len(next(iter(item.passes.values())))
    options = ScoringOptions(
        judge_model=backend.model,
        settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=n, min_n_runs=1)),
    )
    card = score_run(
        run, options=options, rubrics=default_rubric_set().select([TRAIT]), backend=backend
    )
    body = canonical_body(run)
    return PrescoredRun(run, body.text, body.sha256, card, "owner:ops")


def load(engine: Engine, items: Sequence[Item]) -> None:
    """The runs and their cards, then the owner's labels through the service."""
    cards = [prescored(i) for i in items]
    with transaction(engine) as session:
        insert_scored_runs(session, items=cards)
        era_repo.open_era(
            session, era=cards[0].card.measurement_era, opened_by="owner:ops", reason="tests"
        )
    with transaction(engine) as session:
        for item in items:
            if item.owner is None:
                continue
            body = LabelCreate(seat=SEAT, trait=TRAIT, score=item.owner)
            add_label(session, run_id=item.run_id, body=body, by="owner:ana", source="api")


#: (passes, owner's label) by kind of item: sure and right, or unsure and wrong.
_TRACKING = [
    ([1.0, 1.0, 1.0], 1.0),
    ([0.0, 0.0, 0.0], 0.0),
    ([0.5, 0.5, 0.6], 0.5),
    ([0.0, 0.5, 1.0], 1.0),
]
#: Sure or unsure, right or wrong, independently: confidence says nothing of accuracy.
_BLIND = [
    ([1.0, 1.0, 1.0], 0.0),
    ([0.0, 0.0, 0.0], 0.0),
    ([0.0, 0.5, 1.0], 0.5),
    ([0.0, 0.5, 1.0], 1.0),
]


def tracking(n: int = 80, judge: str = "scripted-sure") -> list[Item]:
    """A judge whose confidence tracks its accuracy: every item with confidence 0.9 or more
    agrees with the owner; every item with confidence 0 (passes 0, 0.5, 1) does not."""
    return [
        Item(f"esc-{k:03d}", {judge: _TRACKING[k % 4][0]}, _TRACKING[k % 4][1]) for k in range(n)
    ]


def blind(n: int = 80, judge: str = "scripted-blind") -> list[Item]:
    """A judge whose confidence does not track its accuracy: half right at every confidence."""
    return [Item(f"esc-{k:03d}", {judge: _BLIND[k % 4][0]}, _BLIND[k % 4][1]) for k in range(n)]
