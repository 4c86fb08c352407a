"""Alembic environment: the connection comes from ``judge.server.store.migrate.upgrade``."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import judge.server.store.alignments
import judge.server.store.ingest_tables
import judge.server.store.labels
import judge.server.store.review_tables
import judge.server.store.tables
import judge.server.store.views  # noqa: F401  (registers the tables on the metadata)

target_metadata = SQLModel.metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through judge.server.store.migrate.upgrade(engine)")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
