"""``judge check``: evaluate runs' state checks against a scenario and print the outcomes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.core.domain.checks import StateOutcome
from judge.core.errors import InputError
from judge.core.scoring.outcomes import rollout_summary
from judge.engine.checks.evaluate import evaluate_run
from judge.engine.checks.report import render_outcome, render_rollouts
from judge.engine.checks.runfiles import run_files, scenario_for
from judge.engine.checks.scenario import load_scenario
from judge.tools.cli.exit_codes import EXIT_GATE, EXIT_OK, input_failed


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check runs' end states against a scenario's checks",
        description="Evaluate each run's state checks, hard rules and summary counts. "
        "Several runs also get a rollout summary (best, worst, mean, rates).",
    )
    parser.add_argument("runs", nargs="+", type=Path, metavar="RUN.json")
    parser.add_argument("--scenario", required=True, type=Path, help="scenario file (YAML)")
    switches = {
        "--build-worlds": "rebuild each run's databases from RUN.replay.yaml into a temporary folder",
        "--json": "print JSON Lines, one outcome per run file",
        "--strict": "a partial verdict (an optional check failed) also exits 1",
        "--exit-zero": "report only: exit 0 whatever the verdicts",
    }
    for flag, text in switches.items():
        parser.add_argument(flag, action="store_true", help=text)
    parser.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    """Handle ``judge check``: 0 when every verdict holds, 1 when one failed, 2 on bad input."""
    try:
        scenario = load_scenario(args.scenario)
        with run_files(args.runs, [scenario], build_worlds=args.build_worlds) as loaded:
            outcomes = [
                evaluate_run(f.run, scenario_for(f.run, [scenario]), base_dir=f.base_dir)
                for f in loaded
            ]
    except InputError as exc:
        return input_failed(exc)
    print(_render(outcomes, as_json=args.json))
    failures = verdict_failures(outcomes, strict=args.strict)
    for line in failures:
        print(line, file=sys.stderr)
    return EXIT_GATE if failures and not args.exit_zero else EXIT_OK


def verdict_failures(outcomes: list[StateOutcome], *, strict: bool) -> list[str]:
    """One line per run whose verdict fails: ``fail`` and ``unscoreable`` always (a run that
    could not be checked has not shown that it passed), ``partial`` with ``strict``."""
    failing = {"fail", "unscoreable"} | ({"partial"} if strict else set())
    return [_verdict_reason(o) for o in outcomes if o.verdict in failing]


def _verdict_reason(outcome: StateOutcome) -> str:
    if outcome.verdict == "unscoreable":
        why = outcome.not_scored_reason or "not scored"
    else:
        failed = [*outcome.failed_required, *outcome.failed_optional]
        why = f"outcome {outcome.outcome}, failed checks: {', '.join(failed) or 'none'}"
    return f"verdict failed: run {outcome.run_id}: {outcome.verdict} ({why})"


def _render(outcomes: list[StateOutcome], *, as_json: bool) -> str:
    """Text: each outcome, and the rollout summary when there are several; JSON: JSON Lines,
    one outcome per run file (the summary is text-only)."""
    if as_json:
        return "\n".join(o.model_dump_json() for o in outcomes)
    text = "\n\n".join(render_outcome(o) for o in outcomes)
    if len(outcomes) > 1:
        text += "\n\n" + render_rollouts(rollout_summary(outcomes))
    return text
