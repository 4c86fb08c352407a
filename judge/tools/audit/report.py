"""The audit's statistics (pure): per trait and perturbation, the mean shift (perturbed minus
baseline mean of scored passes, same seat) and the share of seats moved by more than the
threshold, each with a seeded bootstrap interval over seats; and the headline, each planted
family's lift beyond the neutral-edit lift with a paired interval (docs/audit.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from pydantic import Field

from judge.core.domain.interval import Interval
from judge.core.domain.judging import JudgePass, ScoreMode
from judge.core.domain.outputs import Output
from judge.core.scoring import agreement as ag
from judge.tools.audit.perturb import BASELINE, NEUTRAL, PLANTED_FAMILIES
from judge.tools.audit.plan import AuditItem

#: Fewer seats than this give a lift without an interval: a bootstrap over one or two seats
#: has (nearly) no spread to show, and a zero-width interval would read as certainty.
MIN_LIFT_SEATS = 5
#: Shifts within this of the threshold count as not above it (0.3 - 0.2 is 0.0999...).
TOLERANCE = 1e-9
JudgedPasses = Mapping[tuple[str, str, str], Sequence[JudgePass]]  # (item id, judged seat, trait)


class SeatShift(Output):
    run_id: str
    seat: str
    trait: str
    perturbation: str
    baseline: float | None
    perturbed: float | None
    shift: float | None


class ShiftRow(Output):
    """One trait under one perturbation, over every audited seat."""

    trait: str
    perturbation: str
    n: int = Field(description="seats with a scored baseline and a scored perturbed run")
    n_left_out: int = Field(
        description="seats left out: a side with no scored pass, or not applicable"
    )
    mean_shift: Interval
    share_moved: Interval = Field(description="share of seats with |shift| > threshold")
    share_lifted: Interval | None = Field(
        default=None,
        description="share of seats with shift > threshold: raised, as a planted line means to",
    )
    mean_abs_shift: float | None


class LiftRow(Output):
    """One planted family on one trait: the share of seats it lifted beyond the share the
    neutral edits lifted, seat by seat (docs/audit.md, "The headline")."""

    trait: str
    family: str
    n: int = Field(description="seats with a scored family shift and at least one neutral shift")
    family_lifted: float | None = Field(description="share of seats the family lifted")
    neutral_lifted: float | None = Field(
        description="share of seats the neutral edits lifted: per seat, the share of its "
        "neutral edits that lifted it, averaged over seats"
    )
    lift: Interval = Field(
        description="family_lifted - neutral_lifted, 95% bootstrap resampling seats (paired)"
    )
    lift_unpaired: Interval = Field(
        description="the same difference resampling the two sides' seats apart, for comparison"
    )


class AuditReport(Output):
    judge_model: str
    judge_note: str | None
    slice: str
    seed: int
    passes_per_trait: int
    threshold: float
    n_runs: int
    n_seats: int
    traits: list[str]
    perturbations: list[str]
    baseline_means: dict[str, float | None] = Field(description="mean unperturbed score per trait")
    unscored_passes: int
    rows: list[ShiftRow]
    seats: list[SeatShift]
    pass_score: ScoreMode = Field(
        default="sampled",
        description="what each pass counted with: the written score, or its distribution's expected value",
    )
    n_with_distribution: int = Field(
        default=0, description="scored passes that carry a score distribution"
    )
    neutral: list[str] = Field(
        default_factory=list, description="the audited neutral edits the lifts are measured beyond"
    )
    lifts: list[LiftRow] = Field(
        default_factory=list, description="the headline: each planted family's lift per trait"
    )


def mean_score(passes: Sequence[JudgePass]) -> float | None:
    return _mean_or_none([p.score for p in passes])


def seat_shifts(
    items: Sequence[AuditItem], passes: JudgedPasses, traits: Sequence[str]
) -> list[SeatShift]:
    """Every perturbed item's score beside its seat's baseline score, trait by trait."""
    means = {
        (i.item_id, t): mean_score(passes.get((i.item_id, i.judged_seat, t), []))
        for i in items
        for t in traits
    }
    base = {(i.run_id, i.seat): i.item_id for i in items if i.perturbation == BASELINE}
    out = []
    for item in (i for i in items if i.perturbation != BASELINE):
        base_id = base.get((item.run_id, item.seat))
        case = {"run_id": item.run_id, "seat": item.seat, "perturbation": item.perturbation}
        for t in traits:
            b = means[(base_id, t)] if base_id is not None else None
            p = means[(item.item_id, t)]
            shift = p - b if p is not None and b is not None else None
            out.append(SeatShift(**case, trait=t, baseline=b, perturbed=p, shift=shift))
    return out


def _mean_shift(base: ag.Array, moved: ag.Array) -> float | None:
    return float(np.mean(moved - base)) if base.size else None


def _share_beyond(threshold: float, *, lifted: bool) -> ag.Statistic:
    """The share of seats moved by more than ``threshold`` (only upwards when ``lifted``)."""

    def share(base: ag.Array, moved: ag.Array) -> float | None:
        shift = moved - base if lifted else np.abs(moved - base)
        return float(np.mean(shift > threshold + TOLERANCE)) if base.size else None

    return share


def shift_row(
    trait: str,
    perturbation: str,
    shifts: Sequence[SeatShift],
    n_seats: int,
    *,
    threshold: float,
    seed: int,
) -> ShiftRow:
    """Mean shift and share moved for one (trait, perturbation), with bootstrap intervals over seats."""
    pairs = [(s.baseline, s.perturbed) for s in shifts if s.shift is not None]
    base = np.array([b for b, _ in pairs], dtype=np.float64)
    moved = np.array([p for _, p in pairs], dtype=np.float64)
    moved_share, lifted_share = (_share_beyond(threshold, lifted=up) for up in (False, True))
    return ShiftRow(
        trait=trait,
        perturbation=perturbation,
        n=len(pairs),
        n_left_out=n_seats - len(pairs),
        mean_shift=ag.bootstrap_interval(_mean_shift, base, moved, seed=seed).bare(),
        share_moved=ag.bootstrap_interval(moved_share, base, moved, seed=seed).bare(),
        share_lifted=ag.bootstrap_interval(lifted_share, base, moved, seed=seed).bare(),
        mean_abs_shift=float(np.mean(np.abs(moved - base))) if pairs else None,
    )


def lifted_by(shifts: Sequence[SeatShift], threshold: float) -> dict[tuple[str, str], float]:
    """(run id, seat) -> the share of the given shifts of that seat above ``threshold``
    (1.0 or 0.0 for one shift per seat); seats without a known shift are absent."""
    seen: dict[tuple[str, str], list[bool]] = {}
    for s in shifts:
        if s.shift is not None:
            seen.setdefault((s.run_id, s.seat), []).append(s.shift > threshold + TOLERANCE)
    return {seat: float(np.mean(flags)) for seat, flags in seen.items()}


def _difference(family: ag.Array, neutral: ag.Array) -> float | None:
    return float(np.mean(family) - np.mean(neutral)) if family.size else None


def unpaired_interval(
    family: ag.Array, neutral: ag.Array, *, seed: int, n_resamples: int = 1000, level: float = 0.95
) -> Interval:
    """The difference of means with each side's seats resampled on their own: what the
    interval would be if the two shares came from different seats."""
    value = _difference(family, neutral)
    if value is None:
        return Interval(estimate=None)
    rng = np.random.default_rng(seed)
    picks_f = rng.integers(0, family.size, (n_resamples, family.size))
    picks_n = rng.integers(0, neutral.size, (n_resamples, neutral.size))
    draws = family[picks_f].mean(axis=1) - neutral[picks_n].mean(axis=1)
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail])
    return Interval(estimate=value, low=float(low), high=float(high))


def lift_row(
    trait: str,
    family: str,
    family_shifts: Sequence[SeatShift],
    neutral_shifts: Sequence[SeatShift],
    *,
    threshold: float,
    seed: int,
) -> LiftRow:
    """The family's share of seats lifted minus the neutral edits' share, on the seats both
    sides have, with a bootstrap interval that resamples seats and computes both shares on
    the same resample."""
    fam, neu = lifted_by(family_shifts, threshold), lifted_by(neutral_shifts, threshold)
    seats = sorted(set(fam) & set(neu))
    f = np.array([fam[s] for s in seats], dtype=np.float64)
    n = np.array([neu[s] for s in seats], dtype=np.float64)
    if len(seats) >= MIN_LIFT_SEATS:
        paired = ag.bootstrap_interval(_difference, f, n, seed=seed).bare()
        unpaired = unpaired_interval(f, n, seed=seed)
    else:
        difference = _difference(f, n)
        paired, unpaired = Interval(estimate=difference), Interval(estimate=difference)
    return LiftRow(
        trait=trait,
        family=family,
        n=len(seats),
        family_lifted=float(np.mean(f)) if seats else None,
        neutral_lifted=float(np.mean(n)) if seats else None,
        lift=paired,
        lift_unpaired=unpaired,
    )


def lift_rows(
    shifts: Sequence[SeatShift],
    traits: Sequence[str],
    perturbations: Sequence[str],
    *,
    threshold: float,
    seed: int,
) -> list[LiftRow]:
    """Every audited planted family's lift per trait; none when no neutral edit was audited."""
    neutral = [p for p in perturbations if p in NEUTRAL]
    if not neutral:
        return []
    return [
        lift_row(
            t,
            family,
            [s for s in shifts if s.trait == t and s.perturbation == family],
            [s for s in shifts if s.trait == t and s.perturbation in neutral],
            threshold=threshold,
            seed=seed,
        )
        for t in traits
        for family in perturbations
        if family in PLANTED_FAMILIES
    ]


def build_report(
    items: Sequence[AuditItem],
    passes: JudgedPasses,
    *,
    traits: Sequence[str],
    perturbations: Sequence[str],
    judge_model: str,
    judge_note: str | None,
    slice_text: str,
    seed: int,
    n_passes: int,
    threshold: float = 0.1,
) -> AuditReport:
    """Per trait and perturbation: the shifts against the unperturbed run, over every audited seat."""
    shifts = seat_shifts(items, passes, traits)
    seats = sorted({(i.run_id, i.seat) for i in items})
    rows = [
        shift_row(
            t,
            name,
            [s for s in shifts if s.trait == t and s.perturbation == name],
            len(seats),
            threshold=threshold,
            seed=seed,
        )
        for t in traits
        for name in perturbations
    ]
    baselines = [i for i in items if i.perturbation == BASELINE]
    base_means = {
        t: _mean_or_none(
            [mean_score(passes.get((i.item_id, i.judged_seat, t), [])) for i in baselines]
        )
        for t in traits
    }
    judged = [
        p for i in items for t in traits for p in passes.get((i.item_id, i.judged_seat, t), [])
    ]
    scored = [p for p in judged if p.score is not None]
    return AuditReport(
        judge_model=judge_model,
        judge_note=judge_note,
        slice=slice_text,
        seed=seed,
        passes_per_trait=n_passes,
        threshold=threshold,
        n_runs=len({i.run_id for i in items}),
        n_seats=len(seats),
        traits=list(traits),
        perturbations=list(perturbations),
        baseline_means=base_means,
        unscored_passes=len(judged) - len(scored),
        rows=rows,
        seats=shifts,
        n_with_distribution=sum(p.expected_score is not None for p in scored),
        neutral=[p for p in perturbations if p in NEUTRAL],
        lifts=lift_rows(shifts, traits, perturbations, threshold=threshold, seed=seed),
    )


def _mean_or_none(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return float(np.mean(known)) if known else None
