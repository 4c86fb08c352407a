"""`judge db upgrade`: apply the store's migrations (and procrastinate's schema on PostgreSQL)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("db", help="database maintenance (JUDGE_DATABASE_URL)")
    commands = p.add_subparsers(dest="db_command", required=True, metavar="DB_COMMAND")
    up = commands.add_parser(
        "upgrade", help="apply every migration (safe to run from several nodes at once)"
    )
    up.set_defaults(func=run_upgrade)


def run_upgrade(args: argparse.Namespace) -> int:
    from judge.engine.settings import get_settings
    from judge.server.store.db import make_engine
    from judge.server.store.migrate import current_revision
    from judge.server.store.schema import upgrade_all

    engine = make_engine(get_settings().database_url)
    try:
        done = upgrade_all(engine)
        print(f"store schema at revision {current_revision(engine)}")
        if done.procrastinate_to is not None:
            before = done.procrastinate_from
            change = (
                "up to date" if before == done.procrastinate_to else f"was {before or 'absent'}"
            )
            print(f"job queue schema: procrastinate {done.procrastinate_to} ({change})")
    finally:
        engine.dispose()
    return 0
