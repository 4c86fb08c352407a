"""score_run(): the one path from a submitted run to a scorecard (CLI and API both call it)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

from judge.catalog import RubricSet, default_rubric_set
from judge.checks import evaluate_run
from judge.domain.checks import StateOutcome
from judge.domain.config import MeasurementSettings, ScoreMode
from judge.domain.judging import JudgePass, SeatPassKey, TraitResult
from judge.domain.pairwise import PairKey, PairSide, PairVerdict
from judge.domain.passes import PassPolicy
from judge.domain.rubric import Rubric
from judge.domain.run import Run
from judge.domain.scenario import Scenario
from judge.domain.scorecard import JudgeParseRate, Scorecard, SeatScorecard
from judge.domain.status import leaderboard_class
from judge.domain.tamper import SeatTamper
from judge.errors import InputError
from judge.judging.adaptive import decide, run_rounds
from judge.judging.backends import JudgeBackend
from judge.judging.pairwise import (
    PAIRWISE_PROMPT_VERSION,
    pair_specs,
    pairwise_decoders,
    run_pair_passes,
)
from judge.judging.panel import Judge, panel_members, panel_slot
from judge.judging.providers.embedded import EMBEDDED_MODEL
from judge.judging.registry import JudgeSpec, backend_for, spec_of
from judge.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.scoring.composite import composite_score
from judge.scoring.era import measurement_era, prompt_version_for
from judge.scoring.gates import participation
from judge.scoring.objectives import conditions_for_seat, objectives
from judge.scoring.pairwise import pair_result
from judge.scoring.pairwise_board import pairwise_era
from judge.scoring.passes import pass_stats
from judge.scoring.signal import (
    judge_stats,
    panel_agreement,
    panel_mean,
    signal_fields,
    unparseable_by_model,
)
from judge.scoring.tamper import judged_transcript, tamper_findings
from judge.settings import judge_spec, judging_environment

OnSeatPass = Callable[[str, JudgePass], None]
Progress = Callable[[int, int], None]
T = TypeVar("T")


class ScoringOptions(BaseModel):
    """How to score: which judge, how many passes, how hard to push it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    judge_model: str = EMBEDDED_MODEL
    runner: RunnerConfig = RunnerConfig()
    settings: MeasurementSettings = MeasurementSettings()


def trait_result(
    trait: str,
    passes: list[JudgePass],
    rubrics: RubricSet,
    floor: int,
    mode: ScoreMode = "sampled",
    judges: Sequence[str] = (),
    policy: PassPolicy | None = None,
) -> TraitResult:
    """One trait's result; with a panel (``judges``: two or more models) each judge's passes
    are summarised apart and the mean is the mean of the judges' means. Under an adaptive
    ``policy`` the card says how many passes the trait took and why, and a panel's judges
    are those the trait escalated to."""
    rubric = rubrics.rubrics[trait]
    stats = pass_stats(passes, floor)
    signal = signal_fields(passes, mode)
    decision = decide(passes, policy, judges or [""]) if policy and policy.adaptive else None
    if decision is not None and len(judges) > 1:
        judges = [j for j in judges if any(p.model == j for p in passes)] or judges[:1]
    per_judge = judge_stats(passes, judges, floor) if len(judges) > 1 else []
    return TraitResult(
        trait=trait,
        pack=rubrics.packs[trait],
        pass_scores=stats.scores,
        mean=panel_mean(per_judge) if per_judge else stats.mean,
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
        sampled_mean=signal.sampled_mean,
        expected_mean=signal.expected_mean,
        mean_entropy_bits=signal.mean_entropy_bits,
        n_with_distribution=signal.n_with_distribution,
        score_note=signal.score_note,
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
) -> SeatScorecard:
    """Assemble one seat's card from its passes (pure: no judge call here)."""
    floor = settings.denoise.min_n_runs
    results = {
        t: trait_result(
            t,
            [p for p in passes if p.trait == t],
            rubrics,
            floor,
            settings.pass_score,
            judges,
            settings.denoise.policy,
        )
        for t in rubrics.rubrics
    }
    composite = composite_score(results, left_out=rubrics.capability_left_out)
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
    )


def pairwise_side(run: Run, seat: str, settings: MeasurementSettings) -> PairSide:
    """One seat of a pair, its transcript screened as the single-seat judge reads it (every
    seat's judge-directed spans withheld; docs/integrity.md)."""
    if seat not in run.scored_seats:
        raise InputError(
            f"run {run.run_id} has no scored seat {seat!r} (scored seats: {run.scored_seats})"
        )
    transcript = judged_transcript(run, tamper_findings(run, settings))
    return PairSide(
        run_id=run.run_id, seat=seat, agent_id=run.agent_of(seat), transcript=transcript
    )


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
    """Judge one pair on one trait in both orders, ``settings.denoise.passes`` passes per
    order, and read the verdict (the floor applies per order; docs/scoring.md)."""
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
        orders=result.orders,
        outcome=result.outcome,
        flipped=result.flipped,
        passes=passes,
    )


def assemble_scorecard(
    run: Run,
    passes: Mapping[str, list[JudgePass]],
    rubrics: RubricSet,
    options: ScoringOptions,
    state_outcome: StateOutcome | None = None,
    spec: JudgeSpec | None = None,
) -> Scorecard:
    """The scorecard of a judged run; ``spec`` is ``options.judge_model`` already resolved
    (resolved here when not given)."""
    spec = spec if spec is not None and spec.model == options.judge_model else None
    spec = spec or judge_spec(options.judge_model)
    judges = spec.models
    tamper = tamper_findings(run, options.settings)
    seats = {
        s: seat_scorecard(
            run, s, passes.get(s, []), rubrics, options.settings, judges, tamper.get(s)
        )
        for s in run.scored_seats
    }
    custom = rubrics.uses_custom
    return Scorecard(
        run_id=run.run_id,
        scenario_id=run.scenario_id,
        seed=run.seed,
        adversary_config=run.adversary_config,
        seats=seats,
        participation_gated=any(c.participation_gated for c in seats.values()),
        ranked_eligible=not custom,
        leaderboard_class=leaderboard_class(custom_rubric=custom, self_reported=False),
        judge_model=options.judge_model,
        judge_note=spec.note,
        prompt_version=prompt_version_for(options.settings),
        measurement_era=measurement_era(
            judge_model=options.judge_model,
            rubric_hashes=rubrics.hashes,
            settings=options.settings,
            decoders=spec.decoders,
        ),
        state_outcome=state_outcome,
        pass_score=options.settings.pass_score,
        judge_parse=parse_rates([p for seat in passes.values() for p in seat]),
    )


def parse_rates(passes: Sequence[JudgePass]) -> dict[str, JudgeParseRate]:
    """The card's per-model unparseable rates."""
    return {
        model: JudgeParseRate(
            passes=r.passes,
            unparseable=r.unparseable,
            unparseable_rate=r.unparseable / r.passes,
            structured_passes=r.structured,
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
) -> dict[str, list[JudgePass]]:
    """Every pass of every scored seat; seats one after another so each keeps its prefix warm.

    Under an adaptive policy (``denoise.adaptive``) the passes come in rounds
    (:mod:`judge.judging.adaptive`) and ``progress`` counts towards the most there can be.
    """
    done = done or {}
    n = options.settings.denoise.passes
    policy = options.settings.denoise.policy
    total = len(run.scored_seats) * len(rubrics.rubrics) * n
    counter = [sum(1 for (s, t, _) in done if s in run.scored_seats and t in rubrics.rubrics)]
    members = panel_members(backend)
    total = total // n * policy.max if policy.adaptive else total * len(members)
    turns = {e.turn for e in run.transcript}
    settings = options.settings
    transcript = judged_transcript(run, tamper_findings(run, settings))
    runner = options.runner.model_copy(
        update={"score_mode": settings.pass_score, "spotlight": settings.defence}
    )
    out: dict[str, list[JudgePass]] = {}
    for seat in run.scored_seats:
        out[seat] = []
        if policy.adaptive:
            specs = pass_specs(transcript, seat, list(rubrics.rubrics.values()), policy.max, runner)
            out[seat] = await run_rounds(
                specs,
                members,
                policy,
                known_turns=turns,
                config=runner,
                done={(t, i): p for (s, t, i), p in done.items() if s == seat},
                on_pass=_counted(seat, on_pass, progress, counter, total),
            )
            continue
        for slot, member in enumerate(members):
            specs = panel_slot(
                pass_specs(transcript, seat, list(rubrics.rubrics.values()), n, runner), slot, n
            )
            wanted = {(s.trait, s.index) for s in specs}
            seat_done = {
                (t, i): p for (s, t, i), p in done.items() if s == seat and (t, i) in wanted
            }

            def record(p: JudgePass, seat: str = seat) -> None:
                counter[0] += 1
                if on_pass is not None:
                    on_pass(seat, p)
                if progress is not None:
                    progress(counter[0], total)

            out[seat] += await run_passes(
                specs, member, known_turns=turns, config=runner, done=seat_done, on_pass=record
            )
    return out


def _counted(
    seat: str, on_pass: OnSeatPass | None, progress: Progress | None, counter: list[int], total: int
) -> Callable[[JudgePass], None]:
    def record(p: JudgePass) -> None:
        counter[0] += 1
        if on_pass is not None:
            on_pass(seat, p)
        if progress is not None:
            progress(counter[0], total)

    return record


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
) -> Scorecard:
    """Score a run: objectives, judged traits (all passes), composite, gates, era, and the
    state checks when a scenario is given.

    Args:
        scenario: the run's scenario; its checks run against the run's world (read-only)
            before any judge call, so a broken world is reported without paying for passes.
        base_dir: where the run's relative database paths resolve.
        done: passes already made for this run (seat, trait, index), e.g. stored before a
            restart; they are used as they are and not judged again.
        on_pass: called with (seat, pass) as each new pass finishes, to store it at once.
    """
    options = options or ScoringOptions()
    rubrics = rubrics or default_rubric_set()
    state = evaluate_run(run, scenario, base_dir=base_dir) if scenario is not None else None
    backend = backend or backend_for(judge_spec(options.judge_model))
    passes = await judge_run(
        run,
        rubrics=rubrics,
        options=options,
        backend=backend,
        done=done,
        on_pass=on_pass,
        progress=progress,
    )
    spec = spec_of(backend, options.judge_model, judging_environment())
    return assemble_scorecard(run, passes, rubrics, options, state, spec)


def score_run(
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
) -> Scorecard:
    """Synchronous :func:`score_run_async` (same keyword arguments).

    Works whether or not the caller already runs an event loop (a notebook does): inside a
    running loop the scoring runs on a worker thread with a loop of its own, and this call
    blocks until it is done (``on_pass`` and ``progress`` are then called on that thread).
    """

    def scoring() -> Coroutine[Any, Any, Scorecard]:
        return score_run_async(
            run,
            options=options,
            rubrics=rubrics,
            backend=backend,
            done=done,
            on_pass=on_pass,
            progress=progress,
            scenario=scenario,
            base_dir=base_dir,
        )

    return run_blocking(scoring)


def run_blocking(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` to completion from synchronous code.

    ``asyncio.run`` refuses to start inside a running loop, so there the coroutine gets a
    fresh loop on a worker thread; the caller's loop is blocked meanwhile, as any
    synchronous call blocks it.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-score") as pool:
        return pool.submit(lambda: asyncio.run(make())).result()
