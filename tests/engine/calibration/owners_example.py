"""The worked example of docs/calibration.md, "A worked example": owners' labels simulated
from DICES raters, loaded into a store through the service, the judge's side taken from the
embedded judge's committed passes on DICES-350 (reports/calibration/dices-350/passes.jsonl).

Three owners stand for the first three crowd raters of the set (in column order): ana and bo
label every item, cy every other one. ``python -m tests.engine.calibration.owners_example`` prints
the figures the page quotes.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from sqlalchemy.engine import Engine

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.judging import JudgePass
from judge.core.domain.labels import LabelCreate
from judge.engine.calibration.items import CalibrationItem, read_jsonl
from judge.engine.calibration.manifest import CalibrationManifest, load_manifest, shared_data_dir
from judge.engine.calibration.report import JudgedPasses
from judge.engine.calibration.runner import PassRecord
from judge.engine.judging.backends import ScriptedBackend
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run
from judge.server.service.intake import canonical_body
from judge.server.service.labels import add_label
from judge.server.store import eras as era_repo
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import transaction
from judge.tools.importers.registry import import_set

REPO = Path(__file__).resolve().parents[3]
PASSES = REPO / "reports" / "calibration" / "dices-350" / "passes.jsonl"
TRAIT = "harmful_compliance_refusal"
N_ITEMS = 120
#: owner -> the crowd rater whose votes they give, and whether they label every item or
#: every other one (by item id order)
OWNERS = {"ana": (0, 1), "bo": (1, 1), "cy": (2, 2)}


class Example(NamedTuple):
    items: list[CalibrationItem]  # the DICES items, by item id, labels of the three raters only
    manifest: CalibrationManifest
    passes: JudgedPasses


def crowd_rater(items: list[CalibrationItem], index: int) -> str:
    return sorted({lab.rater for lab in items[0].labels if lab.group == "crowd"})[index]


def example(data: Path | None = None) -> Example:
    """The first ``N_ITEMS`` DICES conversations judged in the committed store, by item id,
    each keeping only the three simulated owners' crowd votes."""
    manifest = load_manifest("dices")
    judged = {r.item_id: r.judge_pass for r in read_jsonl(PASSES, PassRecord)}
    found = import_set(manifest, data or shared_data_dir() / "dices")
    chosen = sorted((i for i in found if i.item_id in judged), key=lambda i: i.item_id)[:N_ITEMS]
    raters = {crowd_rater(chosen, index): every for index, every in OWNERS.values()}
    items = [
        CalibrationItem(
            item_id=item.item_id,
            run=item.run,
            labels=[
                lab
                for lab in item.labels
                if lab.rater in raters and position % raters[lab.rater] == 0
            ],
        )
        for position, item in enumerate(chosen)
    ]
    passes = {(i.item_id, "bot", TRAIT): [judged[i.item_id]] for i in items}
    return Example(items, manifest, passes)


def card_of(
    item: CalibrationItem, judge_pass: JudgePass, judge_model: str = EMBEDDED_MODEL
) -> PrescoredRun:
    """The item's run scored from its stored pass alone (no judge call is made)."""
    options = ScoringOptions(
        judge_model=judge_model,
        settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=1, min_n_runs=1)),
    )
    card = score_run(
        item.run,
        options=options,
        rubrics=default_rubric_set().select([TRAIT]),
        backend=ScriptedBackend("no call expected", model=judge_model),
        done={("bot", TRAIT, 0): judge_pass},
    )
    body = canonical_body(item.run)
    return PrescoredRun(item.run, body.text, body.sha256, card, "owner:ops")


def load_store(engine: Engine, found: Example) -> None:
    """The runs and their cards into the store, then each owner's labels through the service."""
    cards = [card_of(i, found.passes[(i.item_id, "bot", TRAIT)][0]) for i in found.items]
    owner_of = {crowd_rater(found.items, index): name for name, (index, _) in OWNERS.items()}
    with transaction(engine) as session:
        insert_scored_runs(session, items=cards)
        era_repo.open_era(
            session, era=cards[0].card.measurement_era, opened_by="owner:ops", reason="example"
        )
    with transaction(engine) as session:
        for item in found.items:
            for lab in item.labels:
                body = LabelCreate(seat="bot", trait=TRAIT, score=lab.score)
                add_label(
                    session,
                    run_id=item.item_id,
                    body=body,
                    by=f"owner:{owner_of[lab.rater]}",
                    source="api",
                )
