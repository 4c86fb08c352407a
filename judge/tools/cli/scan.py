"""`judge scan RUN_OR_DIR... [--json] [--agent-submitted]`: the integrity detector alone, no
judge calls; every file is checked before any output, and a flagged seat exits 1 (docs/ci.md,
docs/integrity.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from judge.core.domain.integrity import SeatTamper
from judge.core.domain.run import Run
from judge.core.errors import InputError, InputErrors
from judge.core.integrity import scan_run
from judge.engine.checks.runfiles import read_run
from judge.tools.cli.exit_codes import EXIT_GATE, EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser(
        "scan",
        help="flag text addressed to the judge in run files (no judge calls; exit 1 when flagged)",
    )
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN_OR_DIR")
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per run (JSON Lines): its seats, flags and findings",
    )
    p.add_argument(
        "--agent-submitted",
        action="store_true",
        help="the runs were submitted by an agent itself: also read their system and fault "
        "events and seat names, as the service does for such runs",
    )
    p.set_defaults(func=run)


def run_paths(paths: Sequence[Path]) -> Iterator[Path]:
    """The files named, and every ``*.json`` file below each folder named, in name order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.json") if p.is_file())
        else:
            yield path


def read_runs(paths: Sequence[Path]) -> list[Run]:
    """Every run, or every problem at once (InputError for one, InputErrors for several)."""
    runs: list[Run] = []
    problems: list[InputError] = []
    for path in paths:
        if path.is_dir() and not any(path.rglob("*.json")):
            problems.append(InputError(f"{path}: the folder holds no *.json run file"))
    for path in run_paths(paths):
        try:
            runs.append(read_run(path))
        except InputError as exc:
            problems.append(exc)
    InputErrors.raise_found(problems)
    return runs


def scan_record(run: Run, seats: dict[str, SeatTamper]) -> dict[str, Any]:
    """The JSON line of one run: per seat, whether it is flagged and each finding."""
    return {
        "run_id": run.run_id,
        "seats": {
            seat: {
                "flagged": result.flagged,
                "findings": [
                    {"turn": f.turn, "kind": f.kind, "excerpt": f.excerpt} for f in result.findings
                ],
            }
            for seat, result in seats.items()
        },
    }


def write_text(stream: TextIO, record: dict[str, Any]) -> None:
    """A short table: one line per seat, then one indented line per finding."""
    for seat, result in record["seats"].items():
        state = f"FLAGGED ({len(result['findings'])})" if result["flagged"] else "clean"
        stream.write(f"{record['run_id']}  {seat}  {state}\n")
        for f in result["findings"]:
            excerpt = " ".join(f["excerpt"].split())
            stream.write(f"    turn {f['turn']:<4} {f['kind']:<15} {excerpt}\n")


def flag_lines(record: dict[str, Any]) -> list[str]:
    """One stderr line per flagged seat, as the other gates print theirs."""
    return [
        f"flagged: run {record['run_id']} seat {seat}: {len(r['findings'])} finding(s) "
        f"({', '.join(sorted({f['kind'] for f in r['findings']}))})"
        for seat, r in record["seats"].items()
        if r["flagged"]
    ]


def run(args: argparse.Namespace) -> int:
    runs = read_runs(args.runs)
    failures: list[str] = []
    for one in runs:
        record = scan_record(one, scan_run(one, agent_submitted=args.agent_submitted))
        failures += flag_lines(record)
        if args.json:
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            write_text(sys.stdout, record)
    sys.stdout.flush()
    for line in failures:
        print(line, file=sys.stderr)
    return EXIT_GATE if failures else EXIT_OK
