"""Selective escalation's rules (docs/escalation.md): a verdict's confidence, the agreement it
is held to, the run split, the coverage-agreement curve and the threshold that keeps the
agreement at an owner's target with a stated risk. Pure."""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from scipy.stats import beta

from judge.core.domain.escalation import (
    LOW_CONFIDENCE,
    OWNERS,
    Confidence,
    CurvePoint,
    Decision,
    SplitFigures,
    TraitEscalation,
)
from judge.core.domain.judging import JudgePass, TraitResult
from judge.core.domain.labels import ANCHORS
from judge.core.domain.passes import spread_of

#: Entropy of the uniform distribution on the eleven-point grid, in bits: the most a pass has.
MAX_ENTROPY_BITS = math.log2(11)


def confidence_of(
    pass_scores: Sequence[float], entropies: Sequence[float], judge_means: Sequence[float]
) -> Confidence:
    """``1 - max(spread, entropy / log2(11), panel range)`` over the terms present: each term
    is a disagreement on the 0-1 scale, and the verdict is only as sure as its worst one. No
    term at all (one sampled pass, one judge) is confidence 0: nothing says it is sure."""
    spread = spread_of(pass_scores) if len(pass_scores) > 1 else None
    entropy = min(1.0, sum(entropies) / len(entropies) / MAX_ENTROPY_BITS) if entropies else None
    panel = spread_of(judge_means) if len(judge_means) > 1 else None
    terms = [t for t in (spread, entropy, panel) if t is not None]
    value = 1.0 - max(terms) if terms else 0.0
    return Confidence(value=max(0.0, value), spread=spread, entropy=entropy, panel=panel)


def _entropies(passes: Sequence[JudgePass]) -> list[float]:
    return [p.score_entropy_bits for p in passes if p.scored and p.score_entropy_bits is not None]


def result_confidence(result: TraitResult) -> Confidence:
    """The confidence of a trait's verdict on the card: all its passes, every judge of a panel."""
    means = [j.mean for j in result.judges if j.mean is not None]
    return confidence_of(result.pass_scores, _entropies(result.passes), means)


def passes_confidence(passes: Sequence[JudgePass]) -> Confidence:
    """The confidence of a verdict read from its passes alone (a calibration set's pass store):
    their spread and entropies, and, where judges of a panel made them, the range of each
    judge's mean, as :func:`result_confidence` reads a card."""
    scores: dict[str, list[float]] = defaultdict(list)
    for p in passes:
        if p.score is not None:
            scores[p.model].append(p.score)
    means = [sum(v) / len(v) for v in scores.values()]
    flat = [s for v in scores.values() for s in v]
    return confidence_of(flat, _entropies(passes), means)


def member_confidence(result: TraitResult, member: int) -> Confidence:
    """The confidence of one panel member's own verdict: its passes alone."""
    judge = result.judges[member]
    own = [p for p in result.passes if p.model == judge.model]
    return confidence_of(judge.pass_scores, _entropies(own), [])


def on_anchor(score: float, anchors: Sequence[float] = ANCHORS) -> float:
    """The anchor nearest ``score`` (the rubric's unless a set's scale points are given); a tie
    (0.25, 0.75 between the rubric's) goes to the higher anchor."""
    return min(anchors, key=lambda a: (abs(a - score), -a))


def agrees(judge: float, owners: float, anchors: Sequence[float] = ANCHORS) -> bool:
    """Anchor agreement: the judge's score and the owners' mean fall on the same anchor (the
    rubric's, or the points of a calibration set's label scale)."""
    return on_anchor(judge, anchors) == on_anchor(owners, anchors)


class JudgedItem(NamedTuple):
    """One labelled seat-trait: the judge's verdict, how sure it was and the owners' mean
    (a calibration set's human panel mean), with the anchors agreement is read on."""

    run_id: str
    seat: str
    judge: float
    owners: float
    confidence: float
    anchors: tuple[float, ...] = ANCHORS

    @property
    def agreed(self) -> bool:
        return agrees(self.judge, self.owners, self.anchors)


def in_selection(run_id: str, seed: int) -> bool:
    """Whether a run falls in the selection split: the first 8 bytes of sha256 of
    ``"{seed}:{run_id}"`` below half of 2**64 (every item of a run on the same side)."""
    digest = hashlib.sha256(f"{seed}:{run_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < 2**63


class Split(NamedTuple):
    selection: list[JudgedItem]
    held_out: list[JudgedItem]


def split_by_run(items: Sequence[JudgedItem], seed: int) -> Split:
    picked = [i for i in items if in_selection(i.run_id, seed)]
    return Split(picked, [i for i in items if not in_selection(i.run_id, seed)])


def lower_bound(agreed: int, kept: int, risk: float) -> float:
    """The one-sided Clopper-Pearson lower bound at ``1 - risk`` of ``agreed`` in ``kept``."""
    return 0.0 if agreed == 0 else float(beta.ppf(risk, agreed, kept - agreed + 1))


def kept(items: Sequence[JudgedItem], threshold: float | None) -> list[JudgedItem]:
    return [] if threshold is None else [i for i in items if i.confidence >= threshold]


def _share_agreed(items: Sequence[JudgedItem]) -> float | None:
    return sum(i.agreed for i in items) / len(items) if items else None


def curve(items: Sequence[JudgedItem]) -> list[CurvePoint]:
    """Coverage and agreement at each distinct confidence of ``items``, highest first."""
    out = []
    for threshold in sorted({i.confidence for i in items}, reverse=True):
        keep = kept(items, threshold)
        out.append(
            CurvePoint(
                threshold=threshold,
                coverage=len(keep) / len(items),
                agreement=_share_agreed(keep),
                n_kept=len(keep),
            )
        )
    return out


def fewest_kept(target: float, risk: float) -> int:
    """The fewest items whose bound can reach ``target`` when every one agrees:
    ``target ** n <= risk``. The search starts at a threshold keeping this many."""
    return 1 if target <= risk else math.ceil(math.log(risk) / math.log(target) - 1e-12)


class Chosen(NamedTuple):
    """The threshold the selection split supports (None: none reaches the target), with the
    bound and coverage at it, or, when none does, at the first threshold tested (the note
    says why)."""

    threshold: float | None
    bound: float
    coverage: float


def choose_threshold(items: Sequence[JudgedItem], target: float, risk: float) -> Chosen:
    """Fixed-sequence testing: thresholds from the highest that keeps :func:`fewest_kept` items
    downwards, each accepted while the lower bound of the kept items' agreement is at least
    ``target``; the last accepted is chosen. The order depends on confidences only, so the
    risk of a chosen threshold whose true agreement is below the target stays at ``risk``."""
    found = Chosen(None, 0.0, 0.0)
    floor = fewest_kept(target, risk)
    for point in curve(items):
        if point.n_kept < floor:
            continue
        keep = kept(items, point.threshold)
        bound = lower_bound(sum(i.agreed for i in keep), len(keep), risk)
        if bound < target:
            return found if found.threshold is not None else Chosen(None, bound, point.coverage)
        found = Chosen(point.threshold, bound, point.coverage)
    return found


def figures(items: Sequence[JudgedItem], threshold: float | None, risk: float) -> SplitFigures:
    """A split's items at ``threshold``: runs, coverage, agreement and its lower bound."""
    keep = kept(items, threshold)
    agreed = sum(i.agreed for i in keep)
    return SplitFigures(
        n_items=len(items),
        n_runs=len({i.run_id for i in items}),
        coverage=len(keep) / len(items) if items else 0.0,
        agreement=_share_agreed(keep),
        lower_bound=lower_bound(agreed, len(keep), risk) if keep else None,
    )


def decide(
    seat: str, result: TraitResult, judge_model: str, stored: TraitEscalation | None
) -> Decision:
    """Who decides a seat-trait: the card's verdict when its confidence reaches the trait's
    threshold (or no target is set); else the first panel member, in panel order, whose own
    verdict reaches it; else the owners, with the reason :data:`LOW_CONFIDENCE`."""
    sure = result_confidence(result)
    line = None if stored is None else stored.threshold
    card = Decision(
        seat=seat,
        trait=result.trait,
        confidence=sure,
        threshold=line,
        decided_by=judge_model,
        score=result.mean,
    )
    if stored is None or (line is not None and result.mean is not None and sure.value >= line):
        return card
    for n, judge in enumerate(result.judges if len(result.judges) > 1 else []):
        own = member_confidence(result, n)
        if line is not None and judge.mean is not None and own.value >= line:
            update = {"decided_by": judge.model, "score": judge.mean, "confidence": own}
            return card.model_copy(update={**update, "escalated_to": "panel"})
    to_owners = {"decided_by": OWNERS, "score": None, "reason": LOW_CONFIDENCE}
    return card.model_copy(update={**to_owners, "escalated_to": "owners"})
