"""`judge import inspect LOG` and `judge import otel FILE`: other tools' records as runs.

With ``--out DIR`` each run is written to ``DIR/RUN_ID.json`` (ready for ``judge score``)
with what could not be mapped in ``DIR/RUN_ID.import.json``; without it the runs are
printed as one JSON list. One line per skipped item goes to stderr either way.
"""

from __future__ import annotations

import argparse
import json
import sys

from judge.cli.exit_codes import EXIT_OK
from judge.integrations.common import ImportedRun, write_runs

SOURCES = ("inspect", "otel")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``judge import inspect|otel`` (the command itself is shared with
    calibration sets, in :mod:`judge.cli.calibration`)."""
    parser.add_argument(
        "--scenario-id",
        default=None,
        help="otel: scenario id of the runs (default: the resource's service.name, else 'otel')",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="inspect/otel: replace run files that differ"
    )


def run_foreign(args: argparse.Namespace) -> int:
    """Handle ``judge import inspect LOG`` and ``judge import otel FILE``."""
    if args.set == "inspect":
        from judge.integrations.inspect_log import runs_from_log

        return emit(runs_from_log(args.path), args)
    from judge.integrations.otel import read_otel

    found = read_otel(args.path, scenario_id=args.scenario_id)
    for line in found.broken:
        print(f"judge: note: {line} (left out)", file=sys.stderr)
    return emit(found.runs, args)


def emit(imported: list[ImportedRun], args: argparse.Namespace) -> int:
    """Write or print the runs; report skipped items on stderr."""
    for item in imported:
        for line in item.notes.skipped:
            print(f"judge: note: run {item.run.run_id}: {line}", file=sys.stderr)
    if args.out is None:
        print(
            json.dumps(
                [i.run.model_dump(mode="json") for i in imported], indent=2, ensure_ascii=False
            )
        )
        return EXIT_OK
    for path in write_runs(imported, args.out, overwrite=args.overwrite):
        print(path)
    return EXIT_OK
