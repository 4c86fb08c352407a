"""`judge align` for one trait (docs/alignment.md): the baseline judged on every labelled
run, the three candidates made from the selection part, each candidate judged (or mapped) on
the held-out part and proven there. The judge is the one seam; tests script it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import NamedTuple

import numpy as np
from pydantic import Field

from judge.core.domain.cost import CostEstimate
from judge.core.domain.judging import JudgePass
from judge.core.domain.outputs import Output
from judge.core.domain.rubric import Rubric
from judge.core.scoring import agreement as ag
from judge.core.scoring.isotonic import CalibrationMap, isotonic_map
from judge.engine.calibration.align import (
    CLARIFICATION_CHARS,
    CLARIFY_ITEMS,
    REASON_CHARS,
    AnchorClarifications,
    CandidateKind,
    Exemplar,
    RunSplit,
    Target,
    choose_exemplars,
    clarify_request,
    exemplar_of,
    most_disagreed,
    one_line,
    parse_clarifications,
    part,
    split_by_run,
    targets_of,
    with_clarifications,
    with_exemplars,
    with_map,
)
from judge.engine.calibration.align_proof import HeldOutProof, LabelScope, held_out_proof
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.owners import passes_width
from judge.engine.calibration.report import JudgedPasses, judge_means, label_panel
from judge.engine.calibration.runner import passes_by_item
from judge.engine.judging.backends import JudgeReply
from judge.engine.judging.panel import Judge, panel_members
from judge.engine.judging.pricing import SeatRequests, estimate
from judge.engine.packs import RubricSet
from judge.engine.pipeline import ScoringOptions, estimate_run, judge_run


class Candidate(Output):
    """One proposed change and its held-out proof (None: it could not be made, see ``note``)."""

    kind: CandidateKind
    note: str = ""
    rubric: Rubric | None = Field(default=None, description="the rubric it would adopt")
    exemplars: list[Exemplar] = Field(default_factory=list)
    clarifications: AnchorClarifications | None = None
    calibration_map: CalibrationMap | None = None
    proof: HeldOutProof | None = None


class Proposal(Output):
    """Everything `judge align` found for one trait: the split, the rubric it started from,
    the judge, and each candidate with its proof."""

    trait: str
    judge_model: str
    split: RunSplit
    n_selection_seats: int
    rubric_hash: str = Field(description="the content hash of the rubric the baseline read")
    candidates: list[Candidate]


class AlignInput(NamedTuple):
    """The labelled items, what they are read against, and the owners' notes by (run, seat)."""

    items: list[CalibrationItem]
    scope: LabelScope
    notes: Mapping[tuple[str, str], str]


#: Told of each pass as it is judged: the run, the seat and the pass.
OnAlignPass = Callable[[str, str, JudgePass], None]
#: Told of the clarification call: the run of the first seat it showed, that seat, the model
#: and the reply.
OnAlignReply = Callable[[str, str, str, JudgeReply], None]


class AlignJudge(NamedTuple):
    """The judge: the rubric set it reads (the trait's rubric the baseline), the options and
    the backend; ``on_pass`` and ``on_reply`` hear of every call made (the service counts
    them in today's spend and the metrics)."""

    rubrics: RubricSet
    options: ScoringOptions
    backend: Judge
    on_pass: OnAlignPass | None = None
    on_reply: OnAlignReply | None = None


def only(judge: AlignJudge, rubric: Rubric) -> RubricSet:
    """The rubric set of ``rubric``'s trait alone, read as ``rubric``."""
    chosen = judge.rubrics.select([rubric.trait])
    return chosen.model_copy(update={"rubrics": {rubric.trait: rubric}})


async def judge_items(
    items: Sequence[CalibrationItem], judge: AlignJudge, rubric: Rubric
) -> JudgedPasses:
    """Every pass of ``rubric``'s trait on every scored seat of ``items``."""
    rubrics, heard = only(judge, rubric), judge.on_pass

    async def judge_one(item: CalibrationItem) -> Mapping[str, Sequence[JudgePass]]:
        on_pass = None if heard is None else partial(heard, item.item_id)
        return await judge_run(
            item.run, rubrics=rubrics, options=judge.options, backend=judge.backend, on_pass=on_pass
        )

    return await passes_by_item(items, judge_one)


def selection_targets(source: AlignInput, split: RunSplit, passes: JudgedPasses) -> list[Target]:
    chosen = part(source.items, split.selection)
    keys, panel = label_panel(chosen, source.scope.manifest, source.scope.label)
    judge = judge_means(passes, keys, source.scope.trait, passes_width(passes))
    return targets_of(keys, ag.row_means(panel), judge)


def mapped_passes(passes: JudgedPasses, found: CalibrationMap) -> JudgedPasses:
    """One pass per seat whose score is the map of the seat's mean (unscored seats stay so)."""
    out: dict[tuple[str, str, str], list[JudgePass]] = {}
    for key, made in passes.items():
        scored = [p.score for p in made if p.score is not None]
        first = min(made, key=lambda p: p.index)
        if scored:
            value = float(found.apply([float(np.mean(scored))])[0])
            first = first.model_copy(
                update={"score": value, "sampled_score": None, "expected_score": None, "index": 0}
            )
        out[key] = [first.model_copy(update={"index": 0})]
    return out


def labelled_items(source: AlignInput) -> list[CalibrationItem]:
    label = source.scope.label.name
    return [i for i in source.items if any(lab.label == label for lab in i.labels)]


#: The pseudo-seat an alignment's estimate is counted under (no agent pays for it).
ALIGN_SEAT = "align"


def estimate_proposal(
    source: AlignInput, judge: AlignJudge, *, seed: int, held_out_share: float
) -> CostEstimate:
    """What :func:`propose` may cost at most, before any call (docs/alignment.md, "What a
    proposal costs"): the baseline on every labelled run, each rubric candidate on the held-out
    runs read at its longest (three exemplars from the longest excerpts of the selection part,
    each anchor clarified at its longest), and the clarification call; every reply at its
    ``max_tokens`` ceiling, prompts counted by the judge's tokenizer."""
    labelled = labelled_items(source)
    split = split_by_run([i.item_id for i in labelled], seed=seed, held_out_share=held_out_share)
    rubric = judge.rubrics.rubrics[source.scope.trait]
    settings = judge.options.settings
    longest = sorted(
        (
            exemplar_of(
                Target(item_id=i.item_id, seat=seat, owners=0.5, judge=None), i, "", settings
            )
            for i in part(labelled, split.selection)
            for seat in i.run.scored_seats
        ),
        key=lambda e: -len(e.excerpt),
    )
    shown = [e.model_copy(update={"reason": e.excerpt[:REASON_CHARS]}) for e in longest[:3]]
    text = one_line(longest[0].excerpt if longest else "", CLARIFICATION_CHARS) or "-"
    clarified = AnchorClarifications(anchor_0=text, anchor_5=text, anchor_1=text)
    held = part(labelled, split.held_out)
    parts = [(labelled, rubric), (held, with_exemplars(rubric, shown))]
    parts.append((held, with_clarifications(rubric, clarified)))
    found = [
        estimate_run(item.run, rubrics=only(judge, r), options=judge.options)
        for items, r in parts
        for item in items
    ]
    if longest:
        request = clarify_request(rubric, longest[:CLARIFY_ITEMS])
        model = panel_members(judge.backend)[0].model
        found.append(estimate([SeatRequests(ALIGN_SEAT, model, [(request, 1)])]))
    return summed(found)


def summed(found: Sequence[CostEstimate]) -> CostEstimate:
    """Several estimates as one, counted under :data:`ALIGN_SEAT`."""
    usd = [e.cost_usd for e in found]
    tokens = sum(e.tokens for e in found)
    priced = all(u is not None for u in usd)
    notes = sorted({e.cost_note for e in found if e.cost_note})
    return CostEstimate(
        n_passes=sum(e.n_passes for e in found),
        prompt_tokens=sum(e.prompt_tokens for e in found),
        completion_tokens=sum(e.completion_tokens for e in found),
        cost_usd=sum(u or 0.0 for u in usd) if priced else None,
        cost_note=None if priced else "; ".join(notes) or None,
        per_seat_tokens={ALIGN_SEAT: tokens},
        per_seat_usd={ALIGN_SEAT: sum(u or 0.0 for u in usd)} if priced else {},
    )


async def propose(
    source: AlignInput, judge: AlignJudge, *, seed: int, held_out_share: float
) -> Proposal:
    """The split, the baseline on every labelled run, and the three candidates with their
    held-out proofs (exemplars and anchors judged there; the map applied to the baseline)."""
    scope = source.scope
    labelled = labelled_items(source)
    split = split_by_run([i.item_id for i in labelled], seed=seed, held_out_share=held_out_share)
    rubric = judge.rubrics.rubrics[scope.trait]
    baseline = await judge_items(labelled, judge, rubric)
    targets = selection_targets(source._replace(items=labelled), split, baseline)
    held = part(labelled, split.held_out)
    # the baseline is what scoring gives now: with a map adopted before, the map of the means
    active = rubric.calibration_map
    base = (
        (baseline, passes_width(baseline))
        if active is None
        else (mapped_passes(baseline, active), 1)
    )
    candidates = [
        await _exemplars(source, judge, rubric, targets, split, held, base),
        await _anchors(source, judge, rubric, targets, split, held, base),
        _calibration_map(source, rubric, targets, split, held, (baseline, base)),
    ]
    return Proposal(
        trait=scope.trait,
        judge_model=judge.options.judge_model,
        split=split,
        n_selection_seats=len(targets),
        rubric_hash=rubric.content_hash,
        candidates=candidates,
    )


Base = tuple[JudgedPasses, int]


async def _exemplars(
    source: AlignInput,
    judge: AlignJudge,
    rubric: Rubric,
    targets: list[Target],
    split: RunSplit,
    held: list[CalibrationItem],
    base: Base,
) -> Candidate:
    items = {i.item_id: i for i in source.items}
    settings = judge.options.settings
    shown = [
        exemplar_of(t, items[t.item_id], source.notes.get((t.item_id, t.seat), ""), settings)
        for t in choose_exemplars(targets, seed=split.seed)
    ]
    if not shown:
        return Candidate(kind="exemplars", note="the selection part has no labelled seat")
    changed = with_exemplars(rubric, shown)
    passes = await judge_items(held, judge, changed)
    proof = held_out_proof(held, source.scope, base, (passes, passes_width(passes)), split)
    return Candidate(kind="exemplars", rubric=changed, exemplars=shown, proof=proof)


async def _anchors(
    source: AlignInput,
    judge: AlignJudge,
    rubric: Rubric,
    targets: list[Target],
    split: RunSplit,
    held: list[CalibrationItem],
    base: Base,
) -> Candidate:
    items = {i.item_id: i for i in source.items}
    settings = judge.options.settings
    shown = [exemplar_of(t, items[t.item_id], "", settings) for t in most_disagreed(targets)]
    if not shown:
        return Candidate(kind="anchors", note="the selection part has no labelled seat")
    member = panel_members(judge.backend)[0]
    reply = await member.complete(clarify_request(rubric, shown))
    if judge.on_reply is not None:
        judge.on_reply(shown[0].item_id, shown[0].seat, member.model, reply)
    found = parse_clarifications(reply.text)
    if isinstance(found, str):
        return Candidate(kind="anchors", note=found)
    changed = with_clarifications(rubric, found)
    passes = await judge_items(held, judge, changed)
    proof = held_out_proof(held, source.scope, base, (passes, passes_width(passes)), split)
    return Candidate(kind="anchors", rubric=changed, clarifications=found, proof=proof)


def _calibration_map(
    source: AlignInput,
    rubric: Rubric,
    targets: list[Target],
    split: RunSplit,
    held: list[CalibrationItem],
    sides: tuple[JudgedPasses, Base],
) -> Candidate:
    """The map fitted on the judge's own means (``sides[0]``), proven against the baseline
    (``sides[1]``); adopting it stores ``rubric`` with the map."""
    raw, base = sides
    judged = [t for t in targets if t.judge is not None]
    found = isotonic_map([t.judge or 0.0 for t in judged], [t.owners for t in judged])
    if found is None:
        return Candidate(
            kind="calibration_map", note="no selection seat was both labelled and scored"
        )
    passes = mapped_passes(raw, found)
    proof = held_out_proof(held, source.scope, base, (passes, 1), split)
    return Candidate(
        kind="calibration_map",
        rubric=with_map(rubric, found),
        calibration_map=found,
        proof=proof,
    )
