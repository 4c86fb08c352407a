"""``judge compare --pairwise``: which of two agents' seats behaved better on a trait, each
matched pair judged in both orders (docs/scoring.md, "Pairwise judging")."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.pairwise import PairToJudge, PairVerdict, PairwiseComparison, PositionBias
from judge.core.domain.rubric import Rubric
from judge.core.domain.run import Run
from judge.core.domain.scenario import Scenario
from judge.core.errors import InputError
from judge.core.integrity import scenario_roles
from judge.core.scoring.pairwise_board import pairwise_comparison
from judge.engine.checks.runfiles import read_run
from judge.engine.checks.scenario import load_scenario
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.registry import single_backend_for
from judge.engine.judging.runner import RunnerConfig
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import PairsToJudge, Progress, judge_pair, pairs_to_judge, run_blocking
from judge.engine.settings import judge_model_settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options only ``--pairwise`` reads."""
    group = parser.add_argument_group("pairwise judging (--pairwise)")
    group.add_argument(
        "--pairwise",
        action="store_true",
        help="ask the judge which seat behaved better, in both orders, instead of comparing "
        "outcomes; --a/--b may name run folders",
    )
    group.add_argument("--trait", default="negotiation", help="the trait to compare on")
    group.add_argument("--judge", help="judge model id (default $JUDGE_MODEL)")
    group.add_argument("--passes", type=int, help="passes per order (raised to the floor of 5)")
    group.add_argument("--seat-a", help="A's seat when its runs score several")
    group.add_argument("--seat-b", help="B's seat when its runs score several")
    group.add_argument(
        "--bootstrap", type=int, default=500, help="resamples for the rating intervals"
    )


def matched_pairs(
    runs_a: Sequence[Run],
    runs_b: Sequence[Run],
    settings: MeasurementSettings,
    *,
    seat_a: str | None = None,
    seat_b: str | None = None,
    scenarios: Sequence[Scenario] = (),
) -> PairsToJudge:
    """Matched runs (same scenario, seed, adversary) as pairs of screened seats; the seat of
    each side is the one named, else the run's only scored seat. The prompt names seats by
    the role names of the run's scenario among ``scenarios``, else Seat A, Seat B, ..."""
    return pairs_to_judge(
        runs_a,
        runs_b,
        settings,
        seat_a=lambda run: _seat_of(run, seat_a),
        seat_b=lambda run: _seat_of(run, seat_b),
        roles={s.scenario_id: scenario_roles(s) for s in scenarios},
    )


def _seat_of(run: Run, seat: str | None) -> str:
    if seat is not None:
        return seat
    if len(run.scored_seats) != 1:
        raise InputError(
            f"run {run.run_id} has {len(run.scored_seats)} scored seats "
            f"({run.scored_seats}); name the one to compare with --seat-a/--seat-b"
        )
    return run.scored_seats[0]


async def judge_pairs(
    pairs: Sequence[PairToJudge],
    rubric: Rubric,
    backend: JudgeBackend,
    *,
    settings: MeasurementSettings,
    runner: RunnerConfig | None = None,
    progress: Progress | None = None,
) -> list[PairVerdict]:
    """Judge pairs one after another (each pair's two prefixes stay hot in the engine)."""
    verdicts = []
    for n, pair in enumerate(pairs, 1):
        verdicts.append(await judge_pair(*pair, rubric, backend, settings=settings, runner=runner))
        if progress is not None:
            progress(n, len(pairs))
    return verdicts


def read_runs(paths: Sequence[Path]) -> list[Run]:
    """The runs of the files named, a folder standing for the ``*.json`` files in it."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.glob("*.json") if p.is_file())
            if not found:
                raise InputError(f"{path}: the folder holds no run file (*.json)")
            files += found
        else:
            files.append(path)
    return [read_run(p) for p in files]


def settings_from(args: argparse.Namespace) -> MeasurementSettings:
    if args.passes is not None and args.passes < 1:
        raise InputError("--passes must be at least 1")
    if args.bootstrap < 0:
        raise InputError("--bootstrap must be 0 or more")
    return MeasurementSettings(denoise=DenoiseConfig(n_runs=args.passes or 5))


def compare_pairwise(args: argparse.Namespace) -> PairwiseComparison:
    """Match the runs, judge every pair in both orders, and sum it up (JudgeError: unreadable
    runs, an unknown trait, a refused judge, a failed backend)."""
    rubrics = default_rubric_set()
    if args.trait not in rubrics.rubrics:
        raise InputError(
            f"--trait: unknown trait {args.trait!r} (known: {sorted(rubrics.rubrics)})"
        )
    settings = settings_from(args)
    judge = judge_model_settings(model=args.judge)
    runs_a, runs_b = read_runs(args.a), read_runs(args.b)
    scenarios = [load_scenario(path) for path in args.scenario or ()]
    pairs, unpaired = matched_pairs(
        runs_a, runs_b, settings, seat_a=args.seat_a, seat_b=args.seat_b, scenarios=scenarios
    )
    if not pairs:
        raise InputError("no run of A matches a run of B by scenario, seed and adversary config")
    backend = single_backend_for(judge.judge)
    rubric = rubrics.rubrics[args.trait]
    verdicts = run_blocking(
        lambda: judge_pairs(
            pairs, rubric, backend, settings=settings, runner=RunnerConfig(concurrency=4)
        )
    )
    return pairwise_comparison(
        verdicts,
        label_a=args.label_a or _label(pairs, "a") or "A",
        label_b=args.label_b or _label(pairs, "b") or "B",
        trait=args.trait,
        judge_model=backend.model,
        era_id=verdicts[0].era_id,
        passes_per_order=settings.denoise.passes,
        unpaired=unpaired,
        n_bootstrap=args.bootstrap,
    )


def _label(pairs: Sequence[PairToJudge], side: Literal["a", "b"]) -> str | None:
    """The side's agent id when all its compared seats share one."""
    agents = {(p.side_a if side == "a" else p.side_b).agent_id for p in pairs}
    return agents.pop() if len(agents) == 1 else None


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def render_bias(bias: PositionBias) -> str:
    """The judge's position bias in one line, with its intervals."""
    flip = bias.flip_interval
    first = bias.first_position_interval
    flip_ci = f" [{flip.low:.0%}, {flip.high:.0%}]" if flip else ""
    first_ci = f" [{first.low:.0%}, {first.high:.0%}]" if first else ""
    return (
        f"position bias of {bias.judge_model} on {bias.trait}: flips {bias.n_flipped} of "
        f"{bias.n_decisive} decisive pairs ({_rate(bias.flip_rate)}{flip_ci}); names the seat "
        f"shown first in {bias.n_first} of {bias.n_named} order verdicts "
        f"({_rate(bias.first_position_rate)}{first_ci})"
    )


def _pair_line(v: PairVerdict) -> str:
    orders = ", ".join(
        f"{o.order.upper()} {o.winner or 'incomplete'} ({o.votes_a}/{o.votes_b}/{o.votes_neither})"
        for o in v.orders
    )
    flip = " FLIP" if v.flipped else ""
    return (
        f"  {v.key.scenario_id} seed {v.key.seed}: {v.side_a.run_id}:{v.side_a.seat} vs "
        f"{v.side_b.run_id}:{v.side_b.seat}: {orders} -> {v.outcome or 'no verdict'}{flip}"
    )


def render_pairwise(c: PairwiseComparison) -> str:
    """Each pair's two orders (votes A/B/neither) and outcome, the bias, and the ratings."""
    head = (
        f"pairwise comparison on {c.trait}: A = {c.label_a}, B = {c.label_b}, {len(c.pairs)} "
        f"pairs, {c.passes_per_order} passes per order, judge {c.judge_model} ({c.era_id})"
    )
    lines = [head, *(_pair_line(v) for v in c.pairs), render_bias(c.bias)]
    for board in c.ratings:
        lines.append(f"ratings ({board.era_id}, {board.scenario_id}; {board.tie_rule}):")
        for r in board.ratings:
            known = r.low is not None and r.high is not None
            interval = f"[{r.low:+.3f}, {r.high:+.3f}] " if known else ""
            rank = f"  {r.rank or '-'}. {r.agent_id} {r.rating:+.3f} "
            lines.append(f"{rank}{interval}W{r.wins} L{r.losses} T{r.ties}")
    cost = c.cost
    dollars = "-" if cost.cost_usd is None else f"${cost.cost_usd:.4f}"
    lines.append(
        f"cost: {cost.n_passes} passes ({cost.n_attempts} calls), tokens in "
        f"{cost.prompt_tokens} out {cost.completion_tokens}, {dollars}"
    )
    lines += [f"unpaired ({u.side.upper()}) {u.run_id}: {u.reason}" for u in c.unpaired]
    return "\n".join(lines)
