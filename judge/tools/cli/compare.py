"""``judge compare``: two agents over the same scenarios and seeds, pair by pair (outcomes, or
the judge's pairwise verdicts with ``--pairwise``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from judge.core.domain.checks import StateOutcome
from judge.core.domain.comparison import AgentComparison
from judge.core.domain.pairwise import PairwiseComparison
from judge.core.domain.scenario import Scenario
from judge.core.errors import ConfigError, InputError, JudgeError
from judge.core.scoring.matched import matched_comparison
from judge.engine.checks.evaluate import evaluate_run
from judge.engine.checks.report import render_comparison
from judge.engine.checks.runfiles import RunFile, run_files, scenario_for
from judge.engine.checks.scenario import load_scenario
from judge.tools.cli import pairwise


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare two agents' runs over the same scenarios and seeds",
        description="Pair runs by scenario, seed and adversary config, report each pair's "
        "outcome difference and a paired test (Wilcoxon signed-rank, or the sign test when "
        "ties dominate). Runs without a partner are listed.",
    )
    parser.add_argument(
        "sides",
        nargs="*",
        type=Path,
        metavar="A B",
        help="agent A's and agent B's runs: two run files or folders (or --a and --b)",
    )
    parser.add_argument("--a", nargs="+", type=Path, metavar="RUN.json", help="agent A's runs")
    parser.add_argument("--b", nargs="+", type=Path, metavar="RUN.json", help="agent B's runs")
    parser.add_argument(
        "--scenario",
        action="append",
        type=Path,
        help="scenario file; repeat for several (needed unless --pairwise; with --pairwise "
        "its role names label the seats in the prompt)",
    )
    parser.add_argument("--label-a", help="name for A (default: its agent id)")
    parser.add_argument("--label-b", help="name for B (default: its agent id)")
    parser.add_argument("--measure", choices=["reward", "check_reward"], default="reward")
    parser.add_argument("--alpha", type=float, default=0.05, help="test level (default 0.05)")
    parser.add_argument(
        "--build-worlds", action="store_true", help="rebuild databases from RUN.replay.yaml files"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the comparison as one line of JSON"
    )
    pairwise.add_arguments(parser)
    parser.set_defaults(func=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    """Handle ``judge compare``; 0 when the comparison was made, 2 on bad input."""
    try:
        args.a, args.b = _sides(args)
        comparison = pairwise.compare_pairwise(args) if args.pairwise else _compare_outcomes(args)
    except JudgeError as exc:
        print(f"judge: error: {exc}", file=sys.stderr)
        bad_input = InputError | ConfigError if args.pairwise else InputError
        return 2 if isinstance(exc, bad_input) else 1
    if args.json:
        print(comparison.model_dump_json())
    elif isinstance(comparison, PairwiseComparison):
        print(pairwise.render_pairwise(comparison))
    else:
        print(render_comparison(comparison))
    return 0


def _compare_outcomes(args: argparse.Namespace) -> AgentComparison:
    if not args.scenario:
        raise InputError("--scenario is needed to evaluate outcomes (or use --pairwise)")
    if not 0.0 < args.alpha < 1.0:
        raise InputError(f"--alpha must be between 0 and 1, not {args.alpha}")
    scenarios = [load_scenario(path) for path in args.scenario]
    outcomes_a, label_a = _evaluate(args.a, scenarios, args.build_worlds)
    outcomes_b, label_b = _evaluate(args.b, scenarios, args.build_worlds)
    return matched_comparison(
        outcomes_a,
        outcomes_b,
        label_a=args.label_a or label_a or "A",
        label_b=args.label_b or label_b or "B",
        measure=args.measure,
        alpha=args.alpha,
    )


def _sides(args: argparse.Namespace) -> tuple[list[Path], list[Path]]:
    """A's and B's runs: ``A B`` as two positional paths, or ``--a ... --b ...``."""
    if args.sides and (args.a or args.b):
        raise InputError("give A and B either as two paths or with --a and --b, not both")
    if args.sides:
        if len(args.sides) != 2:
            raise InputError(f"give two paths, A and B, not {len(args.sides)}")
        return [args.sides[0]], [args.sides[1]]
    if not args.a or not args.b:
        raise InputError("give A's and B's runs: judge compare A B, or --a ... --b ...")
    return list(args.a), list(args.b)


def _evaluate(
    paths: Sequence[Path], scenarios: Sequence[Scenario], build_worlds: bool
) -> tuple[list[StateOutcome], str | None]:
    with run_files(paths, scenarios, build_worlds=build_worlds) as loaded:
        outcomes = [
            evaluate_run(f.run, scenario_for(f.run, scenarios), base_dir=f.base_dir) for f in loaded
        ]
    return outcomes, _agent_label(loaded)


def _agent_label(loaded: Sequence[RunFile]) -> str | None:
    """The side's agent id when all its runs' scored seats share one."""
    agents = {f.run.agent_of(seat) for f in loaded for seat in f.run.scored_seats}
    return agents.pop() if len(agents) == 1 else None
