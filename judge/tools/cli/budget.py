"""`judge budget holds [--clear-expired]`: the owners' budget holds (docs/service.md, "Budgets"),
each `judge align` proposal's estimate held in today's spend until its request ends or the hold
expires; a live hold is never removed, as its request may still be judging."""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import Any

from judge.server.service import budgets
from judge.server.store.db import make_engine, transaction
from judge.tools.cli.exit_codes import EXIT_OK
from judge.tools.cli.options import DEFAULT_DATABASE_URL, database_url

COLUMNS = ("id", "created (UTC)", "expires (UTC)", "tokens", "usd", "by", "expired", "what")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "budget",
        help="the owners' budget holds in today's spend",
        description="Budgets (docs/service.md): see and clear the estimates owners' requests "
        "hold against the platform's daily limits.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    held = actions.add_parser(
        "holds",
        help="list the budget holds, each saying whether it expired; --clear-expired removes "
        "the expired ones",
    )
    held.add_argument(
        "--clear-expired",
        action="store_true",
        help="remove the expired holds first (they no longer count in any spend)",
    )
    held.add_argument("--json", action="store_true", help="print the holds as a JSON array")
    held.add_argument(
        "--database-url",
        help=f"store to use (default $JUDGE_DATABASE_URL or {DEFAULT_DATABASE_URL})",
    )
    held.set_defaults(func=run_holds)


def run_holds(args: argparse.Namespace) -> int:
    engine = make_engine(database_url(args.database_url))
    try:
        cleared: list[int] = []
        if args.clear_expired:
            with transaction(engine) as session:
                cleared = budgets.clear_expired(session)
        with transaction(engine) as session:
            found = budgets.holds(session)
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps([as_json(h) for h in found], indent=2))
        return EXIT_OK
    if args.clear_expired:
        ids = f" ({', '.join(map(str, cleared))})" if cleared else ""
        print(f"cleared {len(cleared)} expired hold{'' if len(cleared) == 1 else 's'}{ids}")
    print(table(found), end="")
    return EXIT_OK


def _time(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")


def as_json(hold: budgets.HoldView) -> dict[str, Any]:
    return {
        "id": hold.hold_id,
        "purpose": hold.purpose,
        "what": hold.what,
        "by": hold.by,
        "tokens": hold.tokens,
        "cost_usd": hold.cost_usd,
        "created_at": hold.created_at.isoformat(),
        "expires_at": hold.expires_at.isoformat(),
        "expired": hold.expired,
    }


def table(found: list[budgets.HoldView]) -> str:
    """The holds as aligned columns; a line saying there are none."""
    if not found:
        return "no budget holds\n"
    rows = [
        (
            str(h.hold_id),
            _time(h.created_at),
            _time(h.expires_at),
            str(h.tokens),
            "-" if h.cost_usd is None else f"{h.cost_usd:.4f}",
            h.by or "-",
            "yes" if h.expired else "no",
            h.what,
        )
        for h in found
    ]
    widths = [max(len(r[i]) for r in [COLUMNS, *rows]) for i in range(len(COLUMNS) - 1)]
    lines = [
        "  ".join([*(cell.ljust(w) for cell, w in zip(r[:-1], widths, strict=True)), r[-1]])
        for r in [COLUMNS, *rows]
    ]
    return "\n".join(lines) + "\n"
