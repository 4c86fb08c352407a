"""`judge score RUN.json [...]`: score runs and print each scorecard as soon as it is made
(docs/ci.md says what goes to stdout and stderr). Every run file, gate and trait named is
checked before the first judge call."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from pydantic import ValidationError

from judge.core.domain.config import MIN_PASSES_FLOOR, DenoiseConfig, MeasurementSettings
from judge.core.domain.cost import Budget, Spent
from judge.core.domain.judging import SCORE_MODES
from judge.core.domain.passes import PassPolicy
from judge.core.domain.scenario import Scenario
from judge.core.domain.scorecard import Scorecard
from judge.core.errors import BudgetExceeded, InputError, RubricError
from judge.core.scoring.cost import limits_for
from judge.core.scoring.thresholds import Threshold, gate_failures, parse_threshold
from judge.engine.checks import load_scenario
from judge.engine.checks.runfiles import RunFile, run_files, scenario_for
from judge.engine.judging.panel import Judge
from judge.engine.judging.pricing import price_of
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.judging.registry import JudgeSpec, backend_for, member_ids
from judge.engine.judging.runner import RUNNER_DEFAULTS, RunnerConfig
from judge.engine.packs import RubricSet, default_rubric_set
from judge.engine.pipeline import GuardFor, ScoringOptions, budget_guard, score_run
from judge.engine.settings import JudgeModelSettings, judge_model_settings
from judge.engine.telemetry.annotations import Receivers, flush_scores, receivers_of, send_scores
from judge.tools.cli.exit_codes import EXIT_GATE, EXIT_OK
from judge.tools.cli.options import add_concurrency_option, add_progress_options, show_progress
from judge.tools.cli.render import progress_bar, render_scorecard


def register(sub: Any) -> None:
    p = sub.add_parser("score", help="score run files and print their scorecards")
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN.json")
    p.add_argument(
        "--json",
        action="store_true",
        help="print each run's full owner scorecard as one line of JSON (JSON Lines, one line per run file)",
    )
    p.add_argument(
        "--judge",
        help=f"judge model id: litellm, embedded/, router:FILE.yaml, scripted/SCORE in dev mode; "
        f"several joined by commas make a judge panel "
        f"(default $JUDGE_MODEL or {EMBEDDED_MODEL})",
    )
    p.add_argument(
        "--traits",
        metavar="A,B",
        help="judge only these traits (comma-separated); the composite is withheld when a capability trait is left out",
    )
    p.add_argument(
        "--pass-score",
        choices=SCORE_MODES,
        help="what each pass counts with (default $JUDGE_PASS_SCORE or sampled; docs/judge-signal.md)",
    )
    p.add_argument(
        "--passes",
        type=passes_arg,
        help="passes per trait (raised to the floor of 5), or adaptive passes FLOOR:MAX:SPREAD, "
        "e.g. 5:15:0.2 (docs/scoring.md)",
    )
    add_concurrency_option(p)
    p.add_argument(
        "--attempts",
        type=int,
        default=RUNNER_DEFAULTS.max_attempts,
        help="tries per judge call on transient errors",
    )
    p.add_argument("--scenario", type=Path, help="scenario file (YAML): run its state checks too")
    p.add_argument(
        "--build-worlds",
        action="store_true",
        help="with --scenario: rebuild worlds from RUN.replay.yaml",
    )
    p.add_argument(
        "--max-cost",
        type=float,
        metavar="USD",
        help="the most one run may cost: a run whose estimate exceeds it is not judged, and one "
        "that reaches it stops after the trait it is judging (a judge with a price only)",
    )
    p.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="the most prompt plus completion tokens one run may use, counted like --max-cost "
        "(on every judge, priced or not)",
    )
    add_progress_options(p)
    p.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="exit 1 when any scored seat's figure is below VALUE (composite, objective_met_rate, "
        "check_reward or a trait name); repeatable",
    )
    p.set_defaults(func=run)


def passes_arg(text: str) -> int | PassPolicy:
    """``--passes``: a count, or an adaptive policy ``FLOOR:MAX:SPREAD``."""
    parts = text.split(":")
    try:
        if len(parts) == 1:
            return int(text)
        floor, most, spread = parts
        return PassPolicy(floor=int(floor), max=int(most), spread=float(spread))
    except (ValueError, ValidationError):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a count (5) or FLOOR:MAX:SPREAD with MAX >= FLOOR and SPREAD in "
            "0-1 (5:15:0.2)"
        ) from None


def options_from(args: argparse.Namespace, judge: JudgeModelSettings) -> ScoringOptions:
    if isinstance(args.passes, int) and args.passes < 1:
        raise InputError("--passes must be at least 1")
    if isinstance(args.passes, PassPolicy) and args.passes.floor < MIN_PASSES_FLOOR:
        raise InputError(f"--passes: the floor of adaptive passes is at least {MIN_PASSES_FLOOR}")
    if args.concurrency < 1 or args.attempts < 1:
        raise InputError("--concurrency and --attempts must be at least 1")
    denoise = (
        DenoiseConfig.model_validate({"passes": args.passes}) if args.passes else DenoiseConfig()
    )
    return ScoringOptions(
        judge_model=judge.model,
        runner=RunnerConfig(concurrency=args.concurrency, max_attempts=args.attempts),
        settings=MeasurementSettings(denoise=denoise, score_mode=judge.score_mode),
    )


def rubrics_from(args: argparse.Namespace) -> RubricSet:
    """Every trait, or only those named by ``--traits`` (InputError: none, or an unknown one)."""
    rubrics = default_rubric_set()
    if args.traits is None:
        return rubrics
    names = [name.strip() for name in args.traits.split(",") if name.strip()]
    if not names:
        raise InputError("--traits: name at least one trait, e.g. --traits integrity,negotiation")
    try:
        return rubrics.only(list(dict.fromkeys(names)))
    except RubricError as exc:
        raise InputError(f"--traits: {exc}") from None


class FileJob(NamedTuple):
    """What every run file is scored with."""

    options: ScoringOptions
    rubrics: RubricSet
    scenario: Scenario | None
    show_progress: bool
    receivers: Receivers = Receivers()
    guard: GuardFor | None = None


def score_file(f: RunFile, job: FileJob, backend: Judge) -> Scorecard:
    with progress_bar(job.show_progress, f.run.run_id) as tick:
        return score_run(
            f.run,
            options=job.options,
            rubrics=job.rubrics,
            backend=backend,
            progress=tick,
            scenario=scenario_for(f.run, [job.scenario]) if job.scenario else None,
            base_dir=f.base_dir,
            guard=job.guard,
        )


class Scored(NamedTuple):
    """The cards made, and one line for each run a budget stopped (not scored)."""

    cards: list[Scorecard]
    stopped: list[str]


def score_files(
    files: list[RunFile], job: FileJob, emit: Callable[[Scorecard], None], judge: JudgeSpec
) -> Scored:
    """Score the files in order, handing each card to ``emit`` as soon as it is made; a run
    that ``--max-cost`` stops is skipped. A library's prints go to stderr meanwhile."""
    cards, stopped = [], []
    with contextlib.redirect_stdout(sys.stderr):
        backend = backend_for(judge)
        for f in files:
            started_ns = time.time_ns()
            try:
                card = score_file(f, job, backend)
            except BudgetExceeded as exc:
                stopped.append(f"run {f.run.run_id} not_scored: budget: {exc}")
                continue
            cards.append(card)
            emit(card)
            send_scores(
                card,
                job.receivers,
                trace_id=f.run.trace_id,
                span_id=f.run.span_id,
                started_ns=started_ns,
            )
    flush_scores()
    return Scored(cards, stopped)


def guard_from(args: argparse.Namespace, options: ScoringOptions) -> GuardFor | None:
    """``--max-cost`` and ``--max-tokens`` as each run's budget (InputError: not a positive
    amount, or a dollar limit on a judge without a price)."""
    if args.max_cost is None and args.max_tokens is None:
        return None
    if args.max_cost is not None and not args.max_cost > 0:
        raise InputError("--max-cost must be a positive amount of US dollars, e.g. 0.50")
    if args.max_tokens is not None and args.max_tokens < 1:
        raise InputError("--max-tokens must be a positive number of tokens, e.g. 200000")
    unpriced = [m for m in member_ids(options.judge_model) if price_of(m) is None]
    if args.max_cost is not None and unpriced:
        raise InputError(
            f"--max-cost: the judge {', '.join(unpriced)} has no price in litellm's price map, so "
            "its cost cannot be counted; use --max-tokens N instead, or choose a priced judge"
        )
    budget = Budget(run_usd=args.max_cost, run_tokens=args.max_tokens)
    limits = limits_for(budget, seats_of_agent={}, agent_spent={}, platform_spent=Spent())
    return functools.partial(budget_guard, limits)


def card_writer(stream: TextIO, *, as_json: bool) -> Callable[[Scorecard], None]:
    """Write each card as it comes: a JSON line, or text with a blank line between cards."""
    written = [0]

    def emit(card: Scorecard) -> None:
        if as_json:
            stream.write(json.dumps(card.model_dump(mode="json")) + "\n")
        else:
            stream.write(("\n" if written[0] else "") + render_scorecard(card) + "\n")
        written[0] += 1
        stream.flush()

    return emit


def report_gates(cards: list[Scorecard], thresholds: list[Threshold]) -> int:
    """Print one line per failed gate on stderr; the exit code (0 or 1)."""
    failures = gate_failures(cards, thresholds)
    for failure in failures:
        print(failure.reason(), file=sys.stderr)
    return EXIT_GATE if failures else EXIT_OK


def run(args: argparse.Namespace) -> int:
    judge = judge_model_settings(model=args.judge, score_mode=args.pass_score)
    options = options_from(args, judge)
    rubrics = rubrics_from(args)
    thresholds = [parse_threshold(text, rubrics.rubrics) for text in args.fail_under]
    scenario = load_scenario(args.scenario) if args.scenario else None
    guard = guard_from(args, options)
    job = FileJob(options, rubrics, scenario, show_progress(args), receivers_of(judge), guard)
    emit = card_writer(sys.stdout, as_json=args.json)
    # every file is validated before any judging starts
    with run_files(
        args.runs, [scenario] if scenario else [], build_worlds=args.build_worlds
    ) as files:
        scored = score_files(files, job, emit, judge.judge)
    for line in scored.stopped:
        print(line, file=sys.stderr)
    gates = report_gates(scored.cards, thresholds)
    return EXIT_GATE if scored.stopped else gates
