"""``judge db upgrade``: our Alembic migrations, and on PostgreSQL procrastinate's schema (its
version kept as the comment of its jobs table) and the shared rate-limit table. Nodes that start
together serialise on an advisory lock, so only one migrates."""

from __future__ import annotations

import re  # stays on re: matches only the version string of our own database server
from importlib.metadata import version
from pathlib import Path
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from judge.server.store import rate_events
from judge.server.store.db import is_postgres_url, lift_timeouts
from judge.server.store.migrate import upgrade

#: Any fixed 64-bit number: the advisory lock every migrating node takes.
MIGRATION_LOCK = 0x6A75_6467_6501
VERSION_MARK = "procrastinate "


class Upgraded(NamedTuple):
    procrastinate_from: str | None
    procrastinate_to: str | None


def upgrade_all(engine: Engine) -> Upgraded:
    """Bring the database up to date (idempotent; safe from several nodes at once)."""
    if not is_postgres_url(str(engine.url)):
        upgrade(engine)
        return Upgraded(None, None)
    with engine.connect() as connection:
        lift_timeouts(connection, local=False)  # another node may migrate for a while
        connection.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            connection.commit()
            upgrade(engine)
            with connection.begin():
                connection.exec_driver_sql(rate_events.TABLE_DDL)
                return apply_procrastinate(connection)
        finally:
            connection.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            connection.exec_driver_sql("RESET lock_timeout")
            connection.exec_driver_sql("RESET statement_timeout")
            connection.commit()


def installed_version(connection: Connection) -> str | None:
    """The procrastinate version the schema was last brought to; None when absent."""
    if connection.execute(sa.text("SELECT to_regclass('procrastinate_jobs')")).scalar() is None:
        return None
    comment = connection.execute(
        sa.text("SELECT obj_description('procrastinate_jobs'::regclass)")
    ).scalar()
    text = str(comment or "")
    return text.removeprefix(VERSION_MARK) if text.startswith(VERSION_MARK) else "0"


def version_key(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def pending_migrations(migrations: Path, since: str, until: str) -> list[Path]:
    """procrastinate's migration files newer than ``since``, up to ``until``, in order."""
    lo, hi = version_key(since), version_key(until)
    files = sorted(migrations.glob("*.sql"))
    return [f for f in files if lo < version_key(f.name.split("_")[0]) <= hi]


def apply_procrastinate(connection: Connection) -> Upgraded:
    from procrastinate.schema import SchemaManager

    current = version("procrastinate")
    found = installed_version(connection)
    if found == current:
        return Upgraded(found, current)
    if found is None:
        connection.exec_driver_sql(SchemaManager.get_schema().replace("%", "%%"))
    else:
        for path in pending_migrations(Path(SchemaManager.get_migrations_path()), found, current):
            connection.exec_driver_sql(path.read_text(encoding="utf-8").replace("%", "%%"))
    connection.exec_driver_sql(f"COMMENT ON TABLE procrastinate_jobs IS '{VERSION_MARK}{current}'")
    return Upgraded(found, current)
