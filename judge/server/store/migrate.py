"""Apply the Alembic migrations programmatically (no alembic.ini needed at runtime)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# alembic names each plugin it sets up, at INFO, when first imported (start-up noise):
# quieted before the imports below load it
logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

from judge.core.domain.wording import counted
from judge.server.store.db import lift_timeouts

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
log = logging.getLogger("judge.store")


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@contextmanager
def _alembic_quiet() -> Iterator[None]:
    """Alembic's own INFO lines (plugins, one multi-line docstring per migration) held back;
    its warnings and errors still pass."""
    logger = logging.getLogger("alembic")
    level = logger.level
    logger.setLevel(max(level, logging.WARNING))
    try:
        yield
    finally:
        logger.setLevel(level)


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to ``revision`` (all ordered steps by default), logging one
    short INFO line when any migration ran (docs/deploy.md, "Settings")."""
    config = alembic_config()
    with _alembic_quiet(), engine.begin() as connection:
        lift_timeouts(connection, local=True)
        before = MigrationContext.configure(connection).get_current_revision()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        after = MigrationContext.configure(connection).get_current_revision()
    if after != before and after is not None:
        script = ScriptDirectory.from_config(config)
        steps = len(list(script.iterate_revisions(after, before or "base")))
        log.info(
            "database schema migrated from %s to %s (%s)",
            before or "an empty database",
            after,
            counted(steps, "migration"),
        )


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
