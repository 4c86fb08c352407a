"""The owners' agreement is computed once per state of what it reads: on the worked example
of docs/calibration.md (three owners' labels on 120 DICES items, the embedded judge's
committed passes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.engine.calibration.items import CalibrationItem, HumanLabel
from judge.engine.calibration.owners import GROUP, era_agreement
from judge.engine.calibration.owners_cache import AgreementCache, agreement_key
from judge.engine.calibration.report import JudgedPasses
from tests.engine.calibration.owners_example import TRAIT, example

ERA = "era-1"
MODEL = "embedded/smollm2-135m-instruct"


@pytest.fixture(scope="module")
def owners(dices_dir: Path) -> tuple[list[CalibrationItem], JudgedPasses]:
    """The example's crowd votes as the owners' labels of the trait."""
    found = example(dices_dir)
    items = [
        item.model_copy(
            update={
                "labels": [
                    lab.model_copy(update={"label": TRAIT, "group": GROUP}) for lab in item.labels
                ]
            }
        )
        for item in found.items
    ]
    return items, found.passes


def one_more_label(items: list[CalibrationItem]) -> list[CalibrationItem]:
    """A fourth owner labels the first item."""
    first = items[0]
    label = HumanLabel(seat="bot", label=TRAIT, group=GROUP, rater="owner:dee", raw="1", score=1.0)
    return [first.model_copy(update={"labels": [*first.labels, label]}), *items[1:]]


def test_asking_twice_with_nothing_new_computes_once(
    owners: tuple[list[CalibrationItem], JudgedPasses],
) -> None:
    items, passes = owners
    cache = AgreementCache()

    first = cache.agreement(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL)
    again = cache.agreement(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL)

    assert cache.computed == 1
    assert again == first


def test_a_new_label_computes_afresh(owners: tuple[list[CalibrationItem], JudgedPasses]) -> None:
    items, passes = owners
    cache = AgreementCache()
    before = cache.agreement(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL)

    after = cache.agreement(
        one_more_label(items), passes, trait=TRAIT, era_id=ERA, judge_model=MODEL
    )

    assert cache.computed == 2
    assert (before.n_labels, after.n_labels) == (300, 301)


def test_the_kept_figures_equal_the_uncached_computation(
    owners: tuple[list[CalibrationItem], JudgedPasses],
) -> None:
    items, passes = owners
    weights = {(i.item_id, "bot"): 2.0 for i in items[::2]}
    cache = AgreementCache()
    cache.agreement(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL, weights=weights)

    kept = cache.agreement(
        items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL, weights=weights
    )

    assert cache.computed == 1
    assert kept == era_agreement(
        items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL, weights=weights
    )
    assert kept.agreement.judge.spearman.estimate is not None


def test_a_caller_changing_its_copy_leaves_the_kept_result_alone(
    owners: tuple[list[CalibrationItem], JudgedPasses],
) -> None:
    items, passes = owners
    cache = AgreementCache()
    mine = cache.agreement(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL)

    mine.agreement.points.clear()

    kept = cache.agreement(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL)
    assert len(kept.agreement.points) == 120


def test_the_key_changes_with_a_rescore_and_with_the_queue_weights(
    owners: tuple[list[CalibrationItem], JudgedPasses],
) -> None:
    items, passes = owners
    key = agreement_key(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL)
    (first, *rest) = passes[(items[0].item_id, "bot", TRAIT)]
    rescored = {
        **passes,
        (items[0].item_id, "bot", TRAIT): [
            first.model_copy(update={"score": 0.5 if first.score != 0.5 else 1.0}),
            *rest,
        ],
    }
    weighted = {(items[0].item_id, "bot"): 3.0}

    assert agreement_key(items, rescored, trait=TRAIT, era_id=ERA, judge_model=MODEL) != key
    assert (
        agreement_key(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL, weights=weighted)
        != key
    )
    assert agreement_key(items, passes, trait=TRAIT, era_id=ERA, judge_model=MODEL) == key


def test_the_oldest_result_is_dropped_beyond_the_size(
    owners: tuple[list[CalibrationItem], JudgedPasses],
) -> None:
    items, passes = owners
    cache = AgreementCache(size=1)
    cache.agreement(items, passes, trait=TRAIT, era_id="a", judge_model=MODEL)
    cache.agreement(items, passes, trait=TRAIT, era_id="b", judge_model=MODEL)

    cache.agreement(items, passes, trait=TRAIT, era_id="a", judge_model=MODEL)

    assert cache.computed == 3
