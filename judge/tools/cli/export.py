"""`judge export scorecards`: scorecards as CSV, JSON Lines or parquet tables (docs/export.md);
`judge export labels`: the owners' labels as a calibration set (docs/calibration.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from judge.core.errors import InputError
from judge.engine.calibration.owners import MANIFEST_FILE, export_set
from judge.server.service.label_agreement import owners_set, traits_of
from judge.server.store.db import make_engine, transaction
from judge.tools.cli.exit_codes import EXIT_OK
from judge.tools.cli.options import DEFAULT_DATABASE_URL, database_url
from judge.tools.tabular import read_scorecard_files, rows_of, stored_scorecards, write_table


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="export scorecards as tables (csv, jsonl, parquet) or the owners' labels as a set",
        description=" ".join(f"{name}: {target.description}" for name, target in TARGETS.items()),
    )
    p.add_argument(
        "what",
        choices=list(TARGETS),
        help="scorecards as tables, or the owners' labels as a calibration set (--out DIR)",
    )
    p.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="SCORECARD.json",
        help="scorecard files (`judge score --json` output); none: read the store",
    )
    p.add_argument("--format", choices=["csv", "jsonl", "parquet"], default="csv", dest="fmt")
    p.add_argument("--table", choices=["traits", "passes"], default="traits")
    p.add_argument("--out", type=Path, help="file to write (default stdout; parquet needs it)")
    p.add_argument(
        "--database-url",
        help=f"store to read (default $JUDGE_DATABASE_URL or {DEFAULT_DATABASE_URL})",
    )
    p.add_argument("--era", help="from the store: only scorecards of this measurement era")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return TARGETS[args.what].handler(args)


def export_scorecards(args: argparse.Namespace) -> int:
    """`judge export scorecards`: the cards of the files given, or of the store, as a table."""
    if args.files:
        cards = read_scorecard_files(args.files)
    else:
        cards = stored_scorecards(database_url(args.database_url), era=args.era)
    count = write_table(rows_of(cards, args.table), args.table, args.fmt, args.out, sys.stdout)
    if args.out is not None:
        print(f"wrote {count} {args.table} rows to {args.out}", file=sys.stderr)
    return EXIT_OK


def export_labels(args: argparse.Namespace) -> int:
    """`judge export labels --out DIR`: the owners' labels as a calibration set that
    `judge calibrate DIR/manifest.yaml --data DIR` reads with any judge (docs/calibration.md)."""
    if args.out is None or args.files:
        raise InputError("judge export labels reads the store and writes a folder: give --out DIR")
    with transaction(make_engine(database_url(args.database_url))) as session:
        found = owners_set(session)
    manifest = export_set(found.runs, found.labels, traits_of(found.items), args.out)
    print(
        f"wrote {len(found.items)} labelled runs ({len(found.labels)} labels, traits "
        f"{', '.join(s.name for s in manifest.labels)}) to {args.out}; "
        f"judge calibrate {args.out / MANIFEST_FILE} --data {args.out}",
        file=sys.stderr,
    )
    return EXIT_OK


class Target(NamedTuple):
    """One thing ``judge export`` writes: its handler and what it writes, for the help."""

    handler: Callable[[argparse.Namespace], int]
    description: str


TARGETS = {
    "scorecards": Target(
        export_scorecards,
        "one row per run x seat x trait (--table traits) or per judge pass (--table passes), "
        "from scorecard JSON files or, with no files, from the store at JUDGE_DATABASE_URL.",
    ),
    "labels": Target(
        export_labels,
        "the owners' labels kept in the store, as a calibration set in --out DIR that "
        "judge calibrate reads (docs/calibration.md).",
    ),
}
