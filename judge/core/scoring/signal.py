"""What a card says about the judge's own signal (no I/O): sampled against expected scores,
within-pass entropy, each judge of a panel, agreement between judges, unparseable rates and
the reply formats the passes were sent in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from judge.core.domain.judging import (
    JudgePass,
    JudgeStats,
    PanelAgreement,
    ReplyFormat,
    ScoreMode,
    TraitResult,
)
from judge.core.domain.scorecard import Scorecard
from judge.core.scoring.agreement import krippendorff_alpha
from judge.core.scoring.passes import pass_stats

NO_LOGPROBS_NOTE = "the judge gave no token log-probabilities: passes count with the sampled score"
PARTIAL_NOTE = "part of a distribution was unseen (the judge answered 1.0) and put on 0.0"


class SignalFields(NamedTuple):
    sampled_mean: float | None
    expected_mean: float | None
    mean_entropy_bits: float | None
    n_with_distribution: int
    score_note: str | None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def signal_fields(passes: Sequence[JudgePass], mode: ScoreMode) -> SignalFields:
    """Means of the sampled and the expected scores, the mean entropy, and a note when an
    expected value was missing or a distribution was partial."""
    scored = [p for p in passes if p.written_score is not None]
    with_dist = [p for p in scored if p.expected_score is not None]
    sampled = [p.written_score for p in scored if p.written_score is not None]
    return SignalFields(
        sampled_mean=_mean(sampled),
        expected_mean=_mean([p.expected_score for p in with_dist if p.expected_score is not None]),
        mean_entropy_bits=_mean(
            [p.score_entropy_bits for p in with_dist if p.score_entropy_bits is not None]
        ),
        n_with_distribution=len(with_dist),
        score_note=_score_note(len(scored), with_dist, mode),
    )


def _score_note(n_scored: int, with_dist: Sequence[JudgePass], mode: ScoreMode) -> str | None:
    if len(with_dist) < n_scored and (mode == "expected" or not with_dist):
        if not with_dist:
            return NO_LOGPROBS_NOTE
        return (
            f"{n_scored - len(with_dist)} of {n_scored} passes had no token log-probabilities "
            "and count with the sampled score"
        )
    if any(p.distribution_partial for p in with_dist):
        return PARTIAL_NOTE
    return None


def judge_stats(passes: Sequence[JudgePass], judges: Sequence[str], floor: int) -> list[JudgeStats]:
    """Each judge's own passes (in panel order): scores, mean, sample variance."""
    out = []
    for model in judges:
        stats = pass_stats([p for p in passes if p.model == model], floor)._asdict()
        kept = {name: stats[name] for name in JudgeStats.model_fields.keys() & stats.keys()}
        out.append(JudgeStats(model=model, pass_scores=stats["scores"], **kept))
    return out


def panel_mean(judges: Sequence[JudgeStats]) -> float | None:
    """The mean of the judges' means (each judge counts once, whatever its pass count)."""
    return _mean([j.mean for j in judges if j.mean is not None])


def panel_agreement(results: Mapping[str, TraitResult], judges: Sequence[str]) -> PanelAgreement:
    """Krippendorff's alpha (interval) over traits between the judges' means; the trait the
    judges disagree on most (largest highest-minus-lowest mean) is named."""
    traits = sorted(results)
    table = _judge_means(results, traits, judges)
    worst = _widest_spread(table, traits)
    means = {}
    if worst is not None:
        means = {j.model: j.mean for j in results[worst[1]].judges if j.mean is not None}
    return PanelAgreement(
        judges=list(judges),
        alpha_interval=krippendorff_alpha(table, "interval") if traits else None,
        n_traits=len(traits),
        largest_disagreement_trait=worst[1] if worst else None,
        largest_disagreement=worst[0] if worst else None,
        largest_disagreement_means=means,
    )


def _judge_means(
    results: Mapping[str, TraitResult], traits: Sequence[str], judges: Sequence[str]
) -> npt.NDArray[np.float64]:
    """Traits x judges: each judge's mean of each trait, NaN where it has none."""
    table = np.full((len(traits), len(judges)), np.nan)
    for row, trait in enumerate(traits):
        means = {j.model: j.mean for j in results[trait].judges}
        for col, model in enumerate(judges):
            value = means.get(model)
            table[row, col] = np.nan if value is None else value
    return table


def _widest_spread(
    table: npt.NDArray[np.float64], traits: Sequence[str]
) -> tuple[float, str] | None:
    """The largest highest-minus-lowest judge mean over traits judged twice or more, first kept."""
    worst: tuple[float, str] | None = None
    for row, trait in enumerate(traits):
        present = table[row][~np.isnan(table[row])]
        if present.size >= 2:
            spread = float(present.max() - present.min())
            if worst is None or spread > worst[0]:
                worst = (spread, trait)
    return worst


class ModelParseRate(NamedTuple):
    passes: int
    unparseable: int
    structured: int


def unparseable_by_model(passes: Sequence[JudgePass]) -> dict[str, ModelParseRate]:
    """Per judge model: passes, passes whose reply held no readable verdict, and passes made
    with the verdict schema enforced."""
    out: dict[str, ModelParseRate] = {}
    for p in passes:
        n, bad, structured = out.get(p.model, ModelParseRate(0, 0, 0))
        out[p.model] = ModelParseRate(
            n + 1,
            bad + (p.parse_status in ("unparseable", "out_of_range")),
            structured + p.structured_output,
        )
    return out


#: How a card names passes whose backend did not say how it held the reply (a scripted judge,
#: or a pass stored before formats were recorded).
NOT_RECORDED = "not recorded"


def format_counts(passes: Iterable[JudgePass]) -> dict[ReplyFormat, int]:
    """Passes per reply format they were sent in (docs/scoring.md, "Reply format"), the most
    used first; passes that recorded none are left out."""
    counts = Counter(p.reply_format for p in passes if p.reply_format is not None)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def format_words(passes: Sequence[JudgePass]) -> str:
    """The reply format of ``passes`` in words: the one format they all went in
    (``json_schema``), else each with its passes (``json_schema 55, none 5``); a panel's
    per judge model where its judges' differ (``judge-a grammar; judge-b none``); "" for
    no passes."""
    words = {m: _counted_formats([p for p in passes if p.model == m]) for m in _models(passes)}
    if len(set(words.values())) <= 1:
        return next(iter(words.values()), "")
    return "; ".join(f"{model} {text}" for model, text in words.items())


def _models(passes: Sequence[JudgePass]) -> list[str]:
    return list(dict.fromkeys(p.model for p in passes))


def _counted_formats(passes: Sequence[JudgePass]) -> str:
    counts = Counter(p.reply_format or NOT_RECORDED for p in passes)
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ordered) == 1:
        return ordered[0][0]
    return ", ".join(f"{name} {n}" for name, n in ordered)


class CardFormats(NamedTuple):
    """A card's reply formats as people read them (docs/judge-signal.md, "On the card")."""

    #: every pass of the card (:func:`format_words`); "" for a card without passes
    card: str
    #: (seat, trait): that trait's passes, only when the traits' formats differ
    traits: dict[tuple[str, str], str]


def card_formats(card: Scorecard) -> CardFormats:
    """The card's reply formats, and each trait's where the traits were not all sent alike
    (the same formats from the same judges; how many passes each took does not count)."""
    items = {
        (seat.seat, t.trait): t.passes
        for seat in card.seats.values()
        for t in [*seat.traits.values(), *(seat.safety_block or {}).values()]
        if t.passes
    }
    kinds = {frozenset((p.model, p.reply_format) for p in ps) for ps in items.values()}
    traits = {k: format_words(ps) for k, ps in items.items()} if len(kinds) > 1 else {}
    return CardFormats(format_words([p for ps in items.values() for p in ps]), traits)
