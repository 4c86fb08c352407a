"""`judge score RUN.json [...]`: score runs and print their scorecards."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from judge.catalog import default_rubric_set
from judge.checks import load_scenario
from judge.checks.runfiles import RunFile, run_files, scenario_for
from judge.cli import EXIT_GATE, EXIT_OK
from judge.cli.render import render_scorecard
from judge.domain.config import DenoiseConfig, MeasurementSettings
from judge.domain.scenario import Scenario
from judge.domain.scorecard import Scorecard
from judge.errors import InputError
from judge.judging.embedded import EMBEDDED_MODEL
from judge.judging.runner import RunnerConfig
from judge.judging.score_grid import SCORE_MODES
from judge.library import judge_backend
from judge.pipeline import ScoringOptions, score_run
from judge.scoring.thresholds import Threshold, gate_failures, parse_threshold


def register(sub: Any) -> None:
    p = sub.add_parser("score", help="score run files and print their scorecards")
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN.json")
    p.add_argument("--json", action="store_true", help="print the full owner scorecard(s) as JSON")
    p.add_argument("--judge", default=None, help=f"litellm model id, or several joined by commas for a judge panel "
                   f"(default $JUDGE_MODEL or {EMBEDDED_MODEL})")
    p.add_argument("--pass-score", choices=["sampled", "expected"], default=None,
                   help="what each pass counts with (default $JUDGE_PASS_SCORE or sampled; docs/judge-signal.md)")
    p.add_argument("--passes", type=int, default=None, help="passes per trait (raised to the floor of 5)")
    p.add_argument("--concurrency", type=int, default=4, help="judge calls in flight at once")
    p.add_argument("--attempts", type=int, default=5, help="tries per judge call on transient errors")
    p.add_argument("--scenario", type=Path, default=None, help="scenario file (YAML): run its state checks too")
    p.add_argument("--build-worlds", action="store_true", help="with --scenario: rebuild worlds from RUN.replay.yaml")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument(
        "--fail-under", action="append", default=[], metavar="NAME=VALUE",
        help="exit 1 when any scored seat's figure is below VALUE (composite, objective_met_rate, "
        "check_reward or a trait name); repeatable",
    )
    p.set_defaults(func=run)


def options_from(args: argparse.Namespace) -> ScoringOptions:
    if args.passes is not None and args.passes < 1:
        raise InputError("--passes must be at least 1")
    if args.concurrency < 1 or args.attempts < 1:
        raise InputError("--concurrency and --attempts must be at least 1")
    denoise = DenoiseConfig(n_runs=args.passes) if args.passes else DenoiseConfig()
    mode = args.pass_score or os.environ.get("JUDGE_PASS_SCORE") or "sampled"
    if mode not in SCORE_MODES:
        raise InputError(f"JUDGE_PASS_SCORE must be one of {list(SCORE_MODES)}, not {mode!r}")
    return ScoringOptions(
        judge_model=args.judge or os.environ.get("JUDGE_MODEL") or EMBEDDED_MODEL,
        runner=RunnerConfig(concurrency=args.concurrency, max_attempts=args.attempts),
        settings=MeasurementSettings(denoise=denoise, pass_score=mode),
    )


def progress_bar(enabled: bool, label: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=0, desc=label, unit="pass", file=sys.stderr, disable=not enabled, leave=False)


def score_files(files: list[RunFile], scenario: Scenario | None, options: ScoringOptions, show: bool) -> list[Scorecard]:
    backend = judge_backend(options.judge_model)
    cards = []
    for f in files:
        with progress_bar(show, f.run.run_id) as bar:

            def tick(done: int, total: int) -> None:
                bar.total = total
                bar.n = done
                bar.refresh()

            run_scenario = scenario_for(f.run, [scenario]) if scenario else None
            cards.append(
                score_run(
                    f.run, options=options, backend=backend, progress=tick, scenario=run_scenario,
                    base_dir=f.base_dir,
                )
            )
    return cards


def thresholds_from(args: argparse.Namespace) -> list[Threshold]:
    traits = default_rubric_set().rubrics
    return [parse_threshold(text, traits) for text in args.fail_under]


def report_gates(cards: list[Scorecard], thresholds: list[Threshold]) -> int:
    """Print one line per failed gate on stderr; the exit code (0 or 1)."""
    failures = gate_failures(cards, thresholds)
    for failure in failures:
        print(failure.reason(), file=sys.stderr)
    return EXIT_GATE if failures else EXIT_OK


def run(args: argparse.Namespace) -> int:
    options = options_from(args)
    thresholds = thresholds_from(args)
    scenario = load_scenario(args.scenario) if args.scenario else None
    # every file is validated before any judging starts
    with run_files(args.runs, [scenario] if scenario else [], build_worlds=args.build_worlds) as files:
        cards = score_files(files, scenario, options, show=not args.no_progress)
    if args.json:
        payload: Any = [c.model_dump(mode="json") for c in cards]
        print(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2))
    else:
        print("\n\n".join(render_scorecard(c) for c in cards))
    return report_gates(cards, thresholds)
