"""`judge schema NAME`: print the JSON Schema of a public format (run, scorecard)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from judge.core.domain.json_schema import MODELS, schema_text
from judge.tools.cli.exit_codes import EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of the run format or the scorecard",
        description="Print a JSON Schema (draft 2020-12) generated from the product's models. "
        "docs/run.schema.json is `judge schema run`.",
    )
    p.add_argument("name", choices=sorted(MODELS), help="which format")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_text(args.name))
    return EXIT_OK
