"""`judge align`'s proposals and their held-out proofs, with judges scripted for it
(tests/align_judges.py; docs/alignment.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.run import Run
from judge.engine.calibration.align_proof import LabelScope
from judge.engine.calibration.align_run import (
    AlignInput,
    AlignJudge,
    Proposal,
    estimate_proposal,
    judge_items,
    propose,
)
from judge.engine.calibration.items import CalibrationItem, HumanLabel
from judge.engine.calibration.owners import owners_manifest
from judge.engine.judging.pricing import prompt_tokens
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions
from tests.align_judges import (
    TRAIT,
    WORDS,
    backend,
    exemplar_learner,
    flat_judge,
    memoriser,
    run_body,
    squeezed_judge,
    word_of,
)

RUNS = 12


def labelled(n: int = RUNS) -> list[CalibrationItem]:
    items = []
    for index in range(n):
        run_id, word = f"r{index:02d}", word_of(index)
        label = HumanLabel(
            seat="buyer", label=TRAIT, group="owners", rater="ana", raw="x", score=WORDS[word]
        )
        run = Run.model_validate(run_body(run_id, word))
        items.append(CalibrationItem(item_id=run_id, run=run, labels=[label]))
    return items


def source(
    items: list[CalibrationItem], notes: dict[tuple[str, str], str] | None = None
) -> AlignInput:
    manifest = owners_manifest([TRAIT])
    return AlignInput(
        items, LabelScope(manifest=manifest, label=manifest.labels[0], trait=TRAIT), notes or {}
    )


def judge_with(script: Any) -> AlignJudge:
    options = ScoringOptions(
        judge_model="scripted-align-judge",
        settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=1, min_n_runs=1)),
    )
    return AlignJudge(default_rubric_set(), options, backend(script))


def proposal(script: Any, seed: int = 39) -> Proposal:
    return asyncio.run(
        propose(source(labelled()), judge_with(script), seed=seed, held_out_share=0.5)
    )


def by_kind(found: Proposal) -> dict[str, Any]:
    return {c.kind: c for c in found.candidates}


def test_a_judge_that_learns_from_exemplars_gains_on_held_out_runs_and_may_be_adopted() -> None:
    found = by_kind(proposal(exemplar_learner))
    proof = found["exemplars"].proof

    assert proof.baseline.judge.mae == pytest.approx(1 / 3)
    assert proof.candidate.judge.mae == 0.0
    assert proof.mae_gain.estimate == pytest.approx(1 / 3)
    assert proof.mae_gain.low > 0 and proof.adoptable is True
    assert proof.baseline.ceiling.note is not None  # one owner: the ceiling says why it is absent
    assert found["anchors"].proof.adoptable is True
    assert found["anchors"].clarifications.anchor_1 == "a careful buyer scores 1"


def test_the_exemplars_come_from_the_selection_part_marked_as_the_judge_reads_them() -> None:
    found = proposal(exemplar_learner)
    shown = by_kind(found)["exemplars"].exemplars

    assert {e.item_id for e in shown} <= set(found.split.selection)
    assert [e.owners_score for e in shown] == [0.0, 0.5, 1.0]
    assert all("(message): ^ Case " in e.excerpt for e in shown)
    assert "Examples the owners scored" in by_kind(found)["exemplars"].rubric.definition


def test_a_judge_that_cannot_improve_gains_nothing_and_nothing_is_adoptable() -> None:
    found = by_kind(proposal(flat_judge))

    for kind in ("exemplars", "anchors", "calibration_map"):
        assert found[kind].proof.mae_gain.estimate == 0.0
        assert found[kind].proof.adoptable is False


def test_a_judge_that_memorises_exemplars_gains_nothing_on_the_held_out_runs() -> None:
    found = proposal(memoriser)
    exemplars = by_kind(found)["exemplars"]

    assert exemplars.proof.mae_gain.estimate == 0.0 and exemplars.proof.adoptable is False
    # on the runs it was shown, it does recite the owners' scores: only the split hides that
    seen = [i for i in labelled() if i.item_id in {e.item_id for e in exemplars.exemplars}]
    recited = asyncio.run(judge_items(seen, judge_with(memoriser), exemplars.rubric))
    assert sorted(p[0].score for p in recited.values()) == [0.0, 0.5, 1.0]


def test_a_calibration_map_stretches_a_squeezed_judge_and_is_proven_on_held_out_runs() -> None:
    found = by_kind(proposal(squeezed_judge))
    fitted = found["calibration_map"]

    assert [(p.judge, p.owners) for p in fitted.calibration_map.points] == [
        (0.2, 0.0),
        (0.4, 0.5),
        (0.6, 1.0),
    ]
    assert fitted.proof.candidate.judge.mae == 0.0 and fitted.proof.adoptable is True
    assert found["exemplars"].proof.adoptable is False
    assert found["anchors"].proof is None
    assert found["anchors"].note == "the judge's reply holds no JSON object"


def test_an_owners_note_is_the_exemplars_reason() -> None:
    items = labelled()
    notes = {(i.item_id, "buyer"): f"note for {i.item_id}\nsecond line" for i in items}
    found = asyncio.run(
        propose(source(items, notes), judge_with(flat_judge), seed=39, held_out_share=0.5)
    )

    shown = by_kind(found)["exemplars"].exemplars
    assert [e.reason for e in shown] == [f"note for {e.item_id}" for e in shown]


def test_the_estimate_counts_every_call_a_proposal_makes_before_any_is_made() -> None:
    judge = judge_with(exemplar_learner)
    seen: list[tuple[str, str, int]] = []
    heard = judge._replace(
        on_pass=lambda run, seat, p: seen.append((run, seat, p.index)),
        on_reply=lambda run, seat, model, reply: seen.append((run, seat, -1)),
    )
    found = estimate_proposal(source(labelled()), judge, seed=39, held_out_share=0.5)
    assert judge.backend.history == []  # type: ignore[union-attr]

    made = asyncio.run(propose(source(labelled()), heard, seed=39, held_out_share=0.5))

    history = judge.backend.history  # type: ignore[union-attr]
    assert len(history) == 12 + 6 + 1 + 6 == len(seen) == found.n_passes
    clarified = [(run, seat) for run, seat, index in seen if index == -1]
    assert len(clarified) == 1 and clarified[0][0] in made.split.selection
    assert found.per_seat_tokens == {"align": found.tokens}
    # an upper bound: the prompts the judge was sent, each reply at its ceiling, fit in it
    sent = sum(prompt_tokens(judge.options.judge_model, r) + r.max_tokens for r in history)
    assert sent <= found.tokens
