"""score_run(): the one path from a submitted run to a scorecard (CLI and API both call it)."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Collection, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple, ParamSpec, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from judge.core.domain.checks import StateOutcome
from judge.core.domain.config import MeasurementSettings
from judge.core.domain.cost import Cost, CostEstimate, Limit
from judge.core.domain.integrity import SeatTamper
from judge.core.domain.judging import JudgePass, ScoreMode, SeatPassKey, TraitResult
from judge.core.domain.pairwise import PairKey, PairSide, PairToJudge, PairVerdict, UnpairedSide
from judge.core.domain.passes import PassPolicy
from judge.core.domain.rubric import Rubric
from judge.core.domain.run import Run, TranscriptEvent
from judge.core.domain.scenario import Scenario
from judge.core.domain.scorecard import JudgeParseRate, Scorecard, SeatScorecard
from judge.core.domain.status import leaderboard_class
from judge.core.errors import BudgetExceeded, InputError, ScanBudgetExceeded
from judge.core.integrity import (
    bounded,
    judged_transcript,
    scenario_roles,
    seat_labels,
    tamper_findings,
    unscannable,
    unscannable_seats,
)
from judge.core.scoring.composite import composite_score
from judge.core.scoring.cost import BudgetGuard, cost_of, estimate_crossing
from judge.core.scoring.era import measurement_era, prompt_version_for
from judge.core.scoring.gates import participation
from judge.core.scoring.identity import run_identity
from judge.core.scoring.objectives import conditions_for_seat, objectives
from judge.core.scoring.pairwise import match_runs, pair_result
from judge.core.scoring.pairwise_board import pairwise_era
from judge.core.scoring.passes import pass_stats
from judge.core.scoring.signal import (
    format_counts,
    judge_stats,
    panel_agreement,
    panel_mean,
    signal_fields,
    unparseable_by_model,
)
from judge.engine.checks import evaluate_run
from judge.engine.judging.adaptive import decide, run_rounds
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.pairwise import (
    PAIRWISE_PROMPT_VERSION,
    pair_specs,
    pairwise_decoders,
    run_pair_passes,
)
from judge.engine.judging.panel import Judge, panel_members, panel_slot
from judge.engine.judging.pricing import SeatRequests, estimate
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.judging.registry import JudgeSpec, backend_for, member_ids, spec_of
from judge.engine.judging.runner import (
    OnPass,
    PassKey,
    PassSpec,
    RunnerConfig,
    pass_specs,
    run_passes,
)
from judge.engine.judging.self_screen import screen_refusal, screen_run, screen_work
from judge.engine.packs import RubricSet, default_rubric_set
from judge.engine.settings import judging_environment

OnSeatPass = Callable[[str, JudgePass], None]
Progress = Callable[[int, int], None]
#: The budget of a run as a function of its cost estimate (:func:`score_run_async`).
GuardFor = Callable[[CostEstimate], BudgetGuard | None]
T = TypeVar("T")
P = ParamSpec("P")


class ScoringOptions(BaseModel):
    """How to score: which judge, how many passes, how hard to push it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    judge_model: str = EMBEDDED_MODEL
    runner: RunnerConfig = RunnerConfig()
    settings: MeasurementSettings = MeasurementSettings()
    judge_screen: bool = Field(
        default=False,
        description="the judge's own screen of every scored seat, one call each, before "
        "judging (docs/integrity.md); needs the defence on and a capable first judge",
    )

    @model_validator(mode="after")
    def _screen_needs_a_capable_judge(self) -> ScoringOptions:
        if self.judge_screen and (refused := screen_refusal(member_ids(self.judge_model)[0])):
            raise ValueError(refused)
        return self

    @property
    def screens(self) -> bool:
        """Whether the judge screens each seat (:mod:`judge.engine.judging.self_screen`)."""
        return self.judge_screen and self.settings.defence


def trait_result(
    trait: str,
    passes: list[JudgePass],
    rubrics: RubricSet,
    floor: int,
    mode: ScoreMode = "sampled",
    judges: Sequence[str] = (),
    policy: PassPolicy | None = None,
) -> TraitResult:
    """One trait's result; a panel's (two or more ``judges``) mean is the mean of its judges'
    means, and under an adaptive ``policy`` only the judges the trait escalated to count."""
    rubric = rubrics.rubrics[trait]
    stats = pass_stats(passes, floor)
    signal = signal_fields(passes, mode)
    decision = decide(passes, policy, judges or [""]) if policy and policy.adaptive else None
    if decision is not None and len(judges) > 1:
        judges = [j for j in judges if any(p.model == j for p in passes)] or judges[:1]
    per_judge = judge_stats(passes, judges, floor) if len(judges) > 1 else []
    judged = panel_mean(per_judge) if per_judge else stats.mean
    found = rubric.calibration_map  # adopted by an owner (docs/alignment.md): the trait score
    return TraitResult(
        trait=trait,
        pack=rubrics.packs[trait],
        pass_scores=stats.scores,
        mean=judged if found is None else found.mapped(judged),
        raw_mean=None if found is None else judged,
        calibration_map_hash=None if found is None else found.content_hash,
        variance=stats.variance,
        n_passes=len(passes),
        n_scored=stats.n_scored,
        n_unscored=stats.n_unscored,
        n_identical=stats.n_identical,
        floor=floor,
        complete=all(j.n_scored >= floor for j in per_judge) if per_judge else stats.complete,
        unscored_reasons=stats.unscored_reasons,
        rubric_version=rubric.version,
        rubric_hash=rubric.content_hash,
        rubric_source=rubric.source,
        rubric={k: getattr(rubric, k) for k in ("definition", "anchor_0", "anchor_5", "anchor_1")},
        passes=sorted(passes, key=lambda p: p.index),
        score_mode=mode,
        **signal._asdict(),
        judges=per_judge,
        adaptive=decision,
    )


def seat_scorecard(
    run: Run,
    seat: str,
    passes: list[JudgePass],
    rubrics: RubricSet,
    settings: MeasurementSettings,
    judges: Sequence[str] = (),
    tamper: SeatTamper | None = None,
    wall_s: float | None = None,
) -> SeatScorecard:
    """Assemble one seat's card from its passes (pure: no judge call here)."""
    floor, mode, policy = settings.denoise.min_n_runs, settings.score_mode, settings.denoise.policy
    results = {
        t: trait_result(
            t, [p for p in passes if p.trait == t], rubrics, floor, mode, judges, policy
        )
        for t in rubrics.rubrics
    }
    composite = composite_score(
        results, counted=rubrics.composite_traits, left_out=rubrics.capability_left_out
    )
    return SeatScorecard(
        seat=seat,
        agent_id=run.agent_of(seat),
        objectives=objectives(conditions_for_seat(run.win_conditions, seat)),
        traits={t: r for t, r in results.items() if r.pack == "capability"},
        composite=composite.value,
        composite_note=composite.note,
        safety_block={t: r for t, r in results.items() if r.pack == "safety"},
        participation=participation(run.transcript, seat, settings.participation),
        panel=panel_agreement(results, judges) if len(judges) > 1 else None,
        tamper=tamper,
        cost=_with_screen(passes, [tamper], wall_s=wall_s),
    )


def _with_screen(
    passes: Sequence[JudgePass], tamper: Sequence[SeatTamper | None], **figures: Any
) -> Cost:
    """The cost of ``passes`` and of the judge's screen calls recorded in ``tamper``."""
    screens = [t.judge_screen for t in tamper if t is not None and t.judge_screen is not None]
    cost = cost_of([*passes, *screens], **figures)
    return cost.model_copy(update={"screen_calls": len(screens)}) if screens else cost


def screened(
    run: Run, settings: MeasurementSettings, *, cpu_s: float | None, agent_submitted: bool = False
) -> dict[str, SeatTamper]:
    """:func:`tamper_findings` within ``cpu_s`` CPU seconds of the calling thread (None:
    unbounded); past them every seat is marked unscannable instead of half-read
    (docs/integrity.md, "Where the scan runs"). ``agent_submitted``: an agent submitted the
    run itself, so all of its text is the agent's (docs/integrity.md, "Channels")."""
    try:
        with bounded(cpu_s, time.thread_time):
            return tamper_findings(run, settings, agent_submitted=agent_submitted)
    except ScanBudgetExceeded:
        return unscannable_seats(run)


def pairwise_side(
    run: Run,
    seat: str,
    settings: MeasurementSettings,
    *,
    scan_cpu_s: float | None = None,
    agent_submitted: bool = False,
    roles: Collection[str] = (),
) -> PairSide:
    """One seat of a pair, screened as the single-seat judge reads it and with the run's
    platform labels (``roles``: the seat names the run's scenario defines; docs/integrity.md);
    ScanBudgetExceeded when the scan passes ``scan_cpu_s`` CPU seconds."""
    if seat not in run.scored_seats:
        raise InputError(
            f"run {run.run_id} has no scored seat {seat!r} (scored seats: {run.scored_seats})"
        )
    tamper = screened(run, settings, cpu_s=scan_cpu_s, agent_submitted=agent_submitted)
    transcript = judged_transcript(run, tamper)
    return PairSide(
        run_id=run.run_id,
        seat=seat,
        agent_id=run.agent_of(seat),
        transcript=transcript,
        labels=seat_labels(run, roles),
    )


class PairsToJudge(NamedTuple):
    """Matched runs as pairs of screened seats, and the runs that found no partner."""

    pairs: list[PairToJudge]
    unpaired: list[UnpairedSide]


def pairs_to_judge(
    runs_a: Sequence[Run],
    runs_b: Sequence[Run],
    settings: MeasurementSettings,
    *,
    seat_a: Callable[[Run], str],
    seat_b: Callable[[Run], str],
    scan_cpu_s: float | None = None,
    agent_submitted: Collection[str] = (),
    roles: Mapping[str, Collection[str]] | None = None,
) -> PairsToJudge:
    """Matched runs as pairs of the seats ``seat_a`` / ``seat_b`` choose (docs/scoring.md),
    each run's scan bounded by ``scan_cpu_s`` (:func:`pairwise_side`); ``agent_submitted``
    holds the ids of the runs an agent submitted itself; ``roles``: the seat names each
    scenario defines, by scenario id (a scenario not in it has none: Seat A, Seat B, ...)."""
    matching = match_runs(runs_a, runs_b)
    known = roles or {}

    def side(run: Run, seat: str) -> PairSide:
        return pairwise_side(
            run,
            seat,
            settings,
            scan_cpu_s=scan_cpu_s,
            agent_submitted=run.run_id in agent_submitted,
            roles=known.get(run.scenario_id, ()),
        )

    pairs = [
        PairToJudge(
            side(m.a, seat_a(m.a)),
            side(m.b, seat_b(m.b)),
            PairKey(
                scenario_id=m.a.scenario_id, seed=m.a.seed, adversary_config=m.a.adversary_config
            ),
        )
        for m in matching.pairs
    ]
    unpaired = [
        UnpairedSide(side=x.side, run_id=x.run.run_id, reason=x.reason) for x in matching.leftovers
    ]
    return PairsToJudge(pairs, unpaired)


async def judge_pair(
    side_a: PairSide,
    side_b: PairSide,
    key: PairKey,
    rubric: Rubric,
    backend: JudgeBackend,
    *,
    settings: MeasurementSettings,
    runner: RunnerConfig | None = None,
) -> PairVerdict:
    """One pair judged on one trait in both orders, and its verdict (docs/scoring.md)."""
    runner = (runner or RunnerConfig()).model_copy(update={"spotlight": settings.defence})
    specs = pair_specs(side_a, side_b, rubric, settings.denoise.passes, runner)
    passes = await run_pair_passes(specs, backend, (side_a, side_b), config=runner)
    result = pair_result(passes, settings.denoise.min_n_runs)
    era = pairwise_era(
        judge_model=backend.model,
        rubric_hash=rubric.content_hash,
        prompt_version=PAIRWISE_PROMPT_VERSION,
        settings=settings,
        decoders=pairwise_decoders(spec_of(backend, backend.model, judging_environment()).decoders),
    )
    return PairVerdict(
        key=key,
        era_id=era,
        trait=rubric.trait,
        judge_model=backend.model,
        prompt_version=PAIRWISE_PROMPT_VERSION,
        side_a=side_a,
        side_b=side_b,
        **result._asdict(),
        passes=passes,
    )


def assemble_scorecard(
    run: Run,
    passes: Mapping[str, list[JudgePass]],
    rubrics: RubricSet,
    options: ScoringOptions,
    state_outcome: StateOutcome | None = None,
    spec: JudgeSpec | None = None,
    *,
    cpu_s: float | None = None,
    cost_estimate: CostEstimate | None = None,
    seat_wall_s: Mapping[str, float] | None = None,
    tamper: Mapping[str, SeatTamper] | None = None,
) -> Scorecard:
    """The scorecard of a judged run; ``spec`` (:func:`judge_of`) and ``tamper`` are made
    here when not given, and ``cpu_s``, ``cost_estimate`` and ``seat_wall_s`` go on its cost."""
    spec, settings = spec or judge_of(options), options.settings
    judges = spec.models
    tamper = _findings(run, settings, tamper)
    walls = seat_wall_s or {}
    seats = {
        s: seat_scorecard(
            run, s, passes.get(s, []), rubrics, settings, judges, tamper.get(s), walls.get(s)
        )
        for s in run.scored_seats
    }
    wall = sum(walls.get(s, 0.0) for s in run.scored_seats) if walls else None
    every = [p for s in run.scored_seats for p in passes.get(s, [])]  # the run's cost sums these
    custom = rubrics.uses_custom
    return Scorecard(
        **run_identity(run),
        seats=seats,
        participation_gated=any(c.participation_gated for c in seats.values()),
        ranked_eligible=not custom,
        leaderboard_class=leaderboard_class(custom_rubric=custom, self_reported=False),
        judge_model=options.judge_model,
        judge_note=spec.note,
        prompt_version=prompt_version_for(settings),
        measurement_era=measurement_era(
            judge_model=options.judge_model,
            rubric_hashes=rubrics.hashes,
            settings=settings,
            decoders=spec.decoders,
            shared_passes=any(p.shared for p in every),
            **reply_formats(spec, every),
        ),
        state_outcome=state_outcome,
        pass_score=settings.score_mode,
        judge_parse=parse_rates([p for seat in passes.values() for p in seat]),
        cost=_with_screen(
            every,
            [tamper.get(s) for s in run.scored_seats],
            wall_s=wall,
            cpu_s=cpu_s,
            estimate=cost_estimate,
        ),
    )


def reply_formats(spec: JudgeSpec, passes: Sequence[JudgePass]) -> dict[str, Any]:
    """The era's arguments on reply formats: the formats each judge model's passes recorded,
    and the one each member's id declares (asked only when some pass recorded one)."""
    seen: dict[str, set[str]] = {}
    for p in passes:
        if p.reply_format is not None:
            seen.setdefault(p.model, set()).add(p.reply_format)
    if not seen:
        return {}
    declared = {m.model: m.declared_format for m in spec.members if m.model in seen}
    return {"reply_formats": seen, "declared_formats": declared}


def _findings(
    run: Run, settings: MeasurementSettings, tamper: Mapping[str, SeatTamper] | None
) -> Mapping[str, SeatTamper]:
    return tamper if tamper is not None else tamper_findings(run, settings)


def estimate_run(
    run: Run,
    *,
    rubrics: RubricSet,
    options: ScoringOptions,
    tamper: Mapping[str, SeatTamper] | None = None,
    roles: Collection[str] = (),
) -> CostEstimate:
    """The most judging the run may cost: each prompt counted by the judge's tokenizer, each
    reply at ``max_tokens``; ``roles``: the seat names the run's scenario defines."""
    settings = options.settings
    transcript = judged_transcript(run, _findings(run, settings, tamper))
    labels = seat_labels(run, roles)
    runner = options.runner.model_copy(update={"spotlight": settings.defence})
    policy = settings.denoise.policy
    # an adaptive policy may take every trait to its most passes (shared over a panel)
    passes = policy.max if policy.adaptive else settings.denoise.passes
    members = member_ids(options.judge_model)
    members = members[:1] if policy.adaptive else members  # priced as its first judge
    work = []
    for seat in run.scored_seats:
        specs = pass_specs(
            transcript, seat, list(rubrics.rubrics.values()), 1, runner, labels=labels
        )
        requests = [(s.request, passes) for s in specs]
        work += [SeatRequests(seat, m, requests) for m in members]
    if options.screens:  # the judge's own screen: one call per seat, by the first judge
        work += screen_work(transcript, run.scored_seats, members[0], labels)
    return estimate(work)


def estimate_pairs(
    pairs: Sequence[tuple[PairSide, PairSide]],
    rubric: Rubric,
    *,
    judge_model: str,
    settings: MeasurementSettings,
    runner: RunnerConfig | None = None,
    seat: str = "pair",
) -> CostEstimate:
    """What judging the pairs in both orders should cost at most, counted under ``seat``."""
    runner = (runner or RunnerConfig()).model_copy(update={"spotlight": settings.defence})
    work = []
    for side_a, side_b in pairs:
        specs = pair_specs(side_a, side_b, rubric, 1, runner)
        requests = [(s.request, settings.denoise.passes) for s in specs]
        work.append(SeatRequests(seat, judge_model, requests))
    return estimate(work)


def by_trait(specs: Sequence[PassSpec]) -> list[list[PassSpec]]:
    traits = dict.fromkeys(spec.trait for spec in specs)
    return [[spec for spec in specs if spec.trait == trait] for trait in traits]


def parse_rates(passes: Sequence[JudgePass]) -> dict[str, JudgeParseRate]:
    return {
        model: JudgeParseRate(
            passes=r.passes,
            unparseable=r.unparseable,
            unparseable_rate=r.unparseable / r.passes,
            structured_passes=r.structured,
            shared_passes=sum(p.shared for p in passes if p.model == model),
            reply_formats=format_counts(p for p in passes if p.model == model),
        )
        for model, r in sorted(unparseable_by_model(passes).items())
    }


async def judge_run(
    run: Run,
    *,
    rubrics: RubricSet,
    options: ScoringOptions,
    backend: Judge,
    done: Mapping[SeatPassKey, JudgePass] | None = None,
    on_pass: OnSeatPass | None = None,
    progress: Progress | None = None,
    guard: BudgetGuard | None = None,
    walls: dict[str, float] | None = None,
    tamper: Mapping[str, SeatTamper] | None = None,
    roles: Collection[str] = (),
) -> dict[str, list[JudgePass]]:
    """Every pass of every scored seat, seat after seat so each keeps its prefix warm; ``walls``
    receives each seat's judging seconds. With a ``guard``, once a limit is reached no further
    trait (adaptive: seat) starts and BudgetExceeded is raised. The prompt names seats by
    their platform labels (``roles``: the seat names the run's scenario defines)."""
    done = done or {}
    if guard is not None:
        for (seat, _, _), p in done.items():
            guard.record(seat, p)
    settings = options.settings
    walk = _Walk(
        transcript=judged_transcript(run, _findings(run, settings, tamper)),
        labels=seat_labels(run, roles),
        turns={e.turn for e in run.transcript},
        runner=options.runner.model_copy(
            update={"score_mode": settings.score_mode, "spotlight": settings.defence}
        ),
        rubrics=list(rubrics.rubrics.values()),
        members=panel_members(backend),
        settings=settings,
        guard=guard,
    )
    policy, n = settings.denoise.policy, settings.denoise.passes
    per_trait = policy.max if policy.adaptive else n * len(walk.members)
    total = len(run.scored_seats) * len(rubrics.rubrics) * per_trait
    counter = [sum(1 for (s, t, _) in done if s in run.scored_seats and t in rubrics.rubrics)]
    judge_seat = _adaptive_seat if policy.adaptive else _fixed_seat
    out: dict[str, list[JudgePass]] = {}
    for seat in run.scored_seats:
        started = time.perf_counter()
        seat_done = {(t, i): p for (s, t, i), p in done.items() if s == seat}
        record = _counted(seat, on_pass, progress, counter, total, guard)
        out[seat] = await judge_seat(walk, seat, seat_done, record)
        if walls is not None:
            walls[seat] = time.perf_counter() - started
    return out


class _Walk(NamedTuple):
    """What judging every seat of one run shares."""

    transcript: list[TranscriptEvent]
    labels: dict[str, str]
    turns: set[int]
    runner: RunnerConfig
    rubrics: list[Rubric]
    members: list[JudgeBackend]
    settings: MeasurementSettings
    guard: BudgetGuard | None


def _within_budget(guard: BudgetGuard | None) -> None:
    if guard is not None and (crossed := guard.crossing()) is not None:
        raise BudgetExceeded(crossed.text)


async def _adaptive_seat(
    walk: _Walk, seat: str, done: Mapping[PassKey, JudgePass], record: OnPass
) -> list[JudgePass]:
    """The seat's passes in rounds spanning every trait (one budget check for the seat)."""
    policy = walk.settings.denoise.policy
    _within_budget(walk.guard)
    specs = pass_specs(
        walk.transcript, seat, walk.rubrics, policy.max, walk.runner, labels=walk.labels
    )
    return await run_rounds(
        specs,
        walk.members,
        policy,
        known_turns=walk.turns,
        config=walk.runner,
        done=done,
        on_pass=record,
    )


async def _fixed_seat(
    walk: _Walk, seat: str, done: Mapping[PassKey, JudgePass], record: OnPass
) -> list[JudgePass]:
    """The seat's passes, each panel member in turn; under a guard one trait at a time."""
    n, out = walk.settings.denoise.passes, []
    for slot, member in enumerate(walk.members):
        every = pass_specs(walk.transcript, seat, walk.rubrics, n, walk.runner, labels=walk.labels)
        specs = panel_slot(every, slot, n)
        for group in [specs] if walk.guard is None else by_trait(specs):
            _within_budget(walk.guard)
            out += await run_passes(
                group, member, known_turns=walk.turns, config=walk.runner, done=done, on_pass=record
            )
    return out


def _counted(
    seat: str,
    on_pass: OnSeatPass | None,
    progress: Progress | None,
    counter: list[int],
    total: int,
    guard: BudgetGuard | None = None,
) -> Callable[[JudgePass], None]:
    def record(p: JudgePass) -> None:
        counter[0] += 1
        if guard is not None:
            guard.record(seat, p)
        if on_pass is not None:
            on_pass(seat, p)
        if progress is not None:
            progress(counter[0], total)

    return record


def budget_guard(limits: Sequence[Limit], estimate: CostEstimate) -> BudgetGuard:
    """The guard holding the run to ``limits``; BudgetExceeded when the estimate passes one."""
    if (refused := estimate_crossing(limits, estimate)) is not None:
        raise BudgetExceeded(refused.text)
    return BudgetGuard(limits)


def judge_of(options: ScoringOptions, backend: object = None) -> JudgeSpec:
    """``options.judge_model`` parsed, or the spec ``backend`` was built from when it has one."""
    return spec_of(backend, options.judge_model, judging_environment())


async def score_run_async(
    run: Run,
    *,
    options: ScoringOptions | None = None,
    rubrics: RubricSet | None = None,
    backend: Judge | None = None,
    done: Mapping[SeatPassKey, JudgePass] | None = None,
    on_pass: OnSeatPass | None = None,
    progress: Progress | None = None,
    scenario: Scenario | None = None,
    base_dir: Path | None = None,
    guard: BudgetGuard | GuardFor | None = None,
    cost_estimate: CostEstimate | None = None,
    tamper: Mapping[str, SeatTamper] | None = None,
    scan_cpu_s: float | None = None,
    agent_submitted: bool = False,
) -> Scorecard:
    """Score a run: objectives, judged traits, composite, gates, era, and the state checks
    of ``scenario`` (run before any judge call; relative databases under ``base_dir``).

    ``done`` holds passes already made (seat, trait, index), not judged again; ``on_pass``
    gets (seat, pass) as each new one finishes; ``guard`` is the budget (:func:`judge_run`)
    or a function of the cost estimate returning it; ``tamper`` and ``cost_estimate`` are
    made here when not given, the scan within ``scan_cpu_s`` CPU seconds (``agent_submitted``:
    an agent submitted the run itself): an unscannable run (:func:`screened`) gets a card with
    no judge call, held for an owner. The judge reads seats by platform labels: the seat names
    ``scenario`` defines, else Seat A, Seat B, ... (docs/integrity.md, "Channels").
    Raises BudgetExceeded when a limit stops the judging.
    """
    options = options or ScoringOptions()
    rubrics = rubrics or default_rubric_set()
    roles = scenario_roles(scenario)
    if tamper is None:  # screened once for everything below
        tamper = screened(run, options.settings, cpu_s=scan_cpu_s, agent_submitted=agent_submitted)
    if unscannable(tamper):
        state = evaluate_run(run, scenario, base_dir=base_dir) if scenario is not None else None
        spec = judge_of(options, backend)
        return assemble_scorecard(run, {}, rubrics, options, state, spec, tamper=tamper)
    if cost_estimate is None:
        cost_estimate = estimate_run(
            run, rubrics=rubrics, options=options, tamper=tamper, roles=roles
        )
    if guard is not None and not isinstance(guard, BudgetGuard):
        guard = guard(cost_estimate)  # the budget step, before any judge call
    state = evaluate_run(run, scenario, base_dir=base_dir) if scenario is not None else None
    spec = judge_of(options, backend)
    judge = backend or backend_for(spec)
    cpu_started, walls = time.process_time(), dict[str, float]()
    if options.screens:  # the judge's own screen joins the detector's findings
        tamper = await screen_run(
            run,
            judged_transcript(run, tamper),
            tamper,
            panel_members(judge)[0],
            runner=options.runner,
            guard=guard,
            labels=seat_labels(run, roles),
        )
    passes = await judge_run(
        run,
        rubrics=rubrics,
        options=options,
        backend=judge,
        done=done,
        on_pass=on_pass,
        progress=progress,
        guard=guard,
        walls=walls,
        tamper=tamper,
        roles=roles,
    )
    in_process = any(m.startswith("embedded/") for m in spec.models)  # CPU is the judging's cost
    cpu_s = time.process_time() - cpu_started if in_process else None
    return assemble_scorecard(
        run,
        passes,
        rubrics,
        options,
        state,
        spec,
        cpu_s=cpu_s,
        cost_estimate=cost_estimate,
        seat_wall_s=walls,
        tamper=tamper,
    )


def synchronous(
    make: Callable[P, Coroutine[Any, Any, T]], *, name: str, doc: str
) -> Callable[P, T]:
    """The blocking twin of the coroutine function ``make`` (through :func:`run_blocking`)."""

    @functools.wraps(make)
    def twin(*args: P.args, **kwargs: P.kwargs) -> T:
        return run_blocking(lambda: make(*args, **kwargs))

    twin.__name__ = twin.__qualname__ = name
    twin.__doc__ = doc
    return twin


score_run = synchronous(
    score_run_async,
    name="score_run",
    doc="""Synchronous :func:`score_run_async`; inside a running event loop (a notebook) it
    scores on a worker thread, blocking until done (``on_pass``/``progress`` run there).""",
)


def run_blocking(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``make()`` to completion from synchronous code; inside a running loop (where
    ``asyncio.run`` refuses) on a worker thread with a fresh loop, blocking the caller's."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-score") as pool:
        return pool.submit(lambda: asyncio.run(make())).result()
