"""`judge import NAME PATH`: other tools' records (docs/integrations.md), or a human-labelled
set as ``runs/`` and ``labels.jsonl`` (docs/calibration.md), by the table of importers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from judge.engine.calibration.items import write_items
from judge.engine.calibration.manifest import load_manifest
from judge.tools.cli.exit_codes import EXIT_OK
from judge.tools.importers.common import ImportedRun, write_runs
from judge.tools.importers.entries import RunImporter
from judge.tools.importers.registry import IMPORTERS, import_set, run_importer


def register(sub: Any) -> None:
    runs = ", ".join(
        f"{n} ({e.summary})" for n, e in IMPORTERS.items() if isinstance(e, RunImporter)
    )
    p = sub.add_parser(
        "import",
        help="turn Inspect AI logs, OpenTelemetry GenAI traces or a human-labelled set into runs",
        description=f"judge import NAME PATH. NAME: {runs}; or a calibration set name (such as "
        "casino or dices) or manifest path.",
    )
    p.add_argument(
        "set", metavar="SOURCE", help="inspect, otel, or a calibration set name / manifest path"
    )
    p.add_argument("path", type=Path, help="the log, trace file, or the set's data file or folder")
    p.add_argument(
        "--out",
        type=Path,
        help="output folder (calibration sets: default calibration_items; inspect/otel: "
        "default print the runs as JSON)",
    )
    p.add_argument(
        "--scenario-id",
        help="otel: scenario id of the runs (default: the resource's service.name, else 'otel')",
    )
    p.add_argument(
        "--overwrite", action="store_true", help="inspect/otel: replace run files that differ"
    )
    p.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    importer = run_importer(args.set)
    if importer is not None:
        found = importer.read(args.path, args.scenario_id)
        for line in found.left_out:
            print(f"judge: note: {line} (left out)", file=sys.stderr)
        return emit(found.runs, args)
    manifest = load_manifest(args.set)
    out = args.out or Path("calibration_items")
    count = write_items(import_set(manifest, args.path), out)
    print(f"imported {count} {manifest.name} items: {out / 'runs'} and {out / 'labels.jsonl'}")
    return EXIT_OK


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
