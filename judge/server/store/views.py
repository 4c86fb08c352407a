"""Scorecard views stored as they are served (docs/service.md, "Stored scorecard views").

``config_tag`` names the live configuration a view was rendered under; a view whose tag
differs from the current one is rendered again on read.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlmodel import Field, Session, SQLModel, col

from judge.server.store.db import insert_into
from judge.server.store.keys import presented_key_is_live
from judge.server.store.runs import agent_reads, reader
from judge.server.store.tables import (
    PlatformConfigRow,
    RunRow,
    SeatRow,
    UtcDateTime,
    table_of,
    utcnow,
)

OWNER_VIEW = "owner"


def agent_view_name(seat: str) -> str:
    """The name of one seat's agent view (the owner view is :data:`OWNER_VIEW`)."""
    return f"agent:{seat}"


class ScorecardViewRow(SQLModel, table=True):
    """One rendered view of a run's scorecard, exactly as it is served."""

    __tablename__ = "scorecard_views"

    run_id: str = Field(primary_key=True, foreign_key="runs.run_id", max_length=200)
    view: str = Field(primary_key=True, max_length=220)
    etag: str = Field(max_length=80)
    config_tag: str = Field(max_length=80)
    body: bytes = Field(sa_type=sa.LargeBinary())
    body_gzip: bytes = Field(sa_type=sa.LargeBinary())
    rendered_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class RenderedView(NamedTuple):
    """A view ready to store: its name, bytes, gzip form, ETag and configuration tag."""

    view: str
    body: bytes
    body_gzip: bytes
    etag: str
    config_tag: str


class ViewTag(NamedTuple):
    """What a conditional GET needs: the stored ETag and configuration tag, no body."""

    etag: str
    config_tag: str


def entity_tag(body: bytes) -> str:
    """A weak ETag for a body (weak: the same card compressed or not is the same entity)."""
    return f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'


#: The gzip level of every compressed answer (9 costs 40% more time for 0.5% less size).
GZIP_LEVEL = 6


def rendered(view: str, body: bytes, *, config_tag: str = "") -> RenderedView:
    """``body`` with its gzip form (``mtime=0``: the same bytes give the same gzip) and ETag."""
    packed = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)
    return RenderedView(view, body, packed, entity_tag(body), config_tag)


def put_views(session: Session, *, run_id: str, views: Sequence[RenderedView]) -> None:
    """Store ``views`` of the run, replacing any stored under the same names."""
    if not views:
        return
    statement = insert_into(session, ScorecardViewRow).values([_values(run_id, v) for v in views])
    fresh = statement.excluded
    session.execute(
        statement.on_conflict_do_update(
            index_elements=["run_id", "view"],
            set_={
                name: fresh[name] for name in (*ViewTag._fields, "body", "body_gzip", "rendered_at")
            },
        )
    )


def add_missing_view(session: Session, *, run_id: str, view: RenderedView) -> None:
    """Store ``view`` unless one is stored (never replacing one rendered from newer state)."""
    statement = insert_into(session, ScorecardViewRow).values([_values(run_id, view)])
    session.execute(statement.on_conflict_do_nothing(index_elements=["run_id", "view"]))


def _values(run_id: str, view: RenderedView) -> dict[str, object]:
    return {"run_id": run_id, "rendered_at": utcnow(), **view._asdict()}


_VIEWS = table_of(ScorecardViewRow)
_CONFIG = table_of(PlatformConfigRow)
_RUNS = table_of(RunRow)
_SEATS = table_of(SeatRow)
#: Every read below is a statement built once, at import (docs/deploy.md "Read performance").
_THIS_VIEW = sa.and_(
    _VIEWS.c.run_id == sa.bindparam("run_id"), _VIEWS.c.view == sa.bindparam("view")
)
_TAG = sa.select(_VIEWS.c.etag, _VIEWS.c.config_tag).where(_THIS_VIEW)


def _by_encoding(build: Callable[[sa.Column[bytes]], sa.Select[Any]]) -> dict[bool, sa.Select[Any]]:
    """One statement per encoding of the body (gzipped or not): only that one is read."""
    return {
        gzipped: build(_VIEWS.c.body_gzip if gzipped else _VIEWS.c.body)
        for gzipped in (False, True)
    }


_BODY = _by_encoding(
    lambda body: sa.select(_VIEWS.c.etag, _VIEWS.c.config_tag, body).where(_THIS_VIEW)
)
_CONFIG_VALUE = (
    sa.select(_CONFIG.c.value_json)
    .where(_CONFIG.c.key == sa.bindparam("config_key"))
    .scalar_subquery()
)
_BODY_AND_CONFIG = _by_encoding(
    lambda body: sa.select(_VIEWS.c.etag, _VIEWS.c.config_tag, body, _CONFIG_VALUE).where(
        _THIS_VIEW
    )
)
_CONFIG_ALONE = sa.select(_CONFIG_VALUE)


def _own_seat(*also: sa.ColumnElement[bool]) -> dict[bool, sa.Select[Any]]:
    return _by_encoding(
        lambda body: (
            sa.select(_VIEWS.c.etag, _VIEWS.c.config_tag, body)
            .join(_RUNS, _RUNS.c.run_id == _VIEWS.c.run_id)
            .join(_SEATS, _SEATS.c.run_id == _VIEWS.c.run_id)
            .where(_THIS_VIEW, agent_reads(_RUNS, _SEATS), *also)
        )
    )


_OWN_SEAT = _own_seat()
_OWN_SEAT_OF_LIVE_KEY = _own_seat(presented_key_is_live())


def get_tag(session: Session, *, run_id: str, view: str) -> ViewTag | None:
    """The stored view's ETag and configuration tag (the index alone, no body)."""
    found = session.connection().execute(_TAG, {"run_id": run_id, "view": view}).first()
    return None if found is None else ViewTag(*found)


class StoredBody(NamedTuple):
    """A stored view as served: its ETag, configuration tag and the body in one encoding."""

    etag: str
    config_tag: str
    body: bytes


def get_body(session: Session, *, run_id: str, view: str, gzipped: bool) -> StoredBody | None:
    """The stored view with the one body asked for (the other encoding is not read)."""
    return _stored(session, _BODY[gzipped], {"run_id": run_id, "view": view})


def _stored(session: Session, query: sa.Select[Any], keys: dict[str, str]) -> StoredBody | None:
    found = session.connection().execute(query, keys).first()
    return None if found is None else StoredBody(*found)


class BodyAndConfig(NamedTuple):
    """A stored view (None when none is stored) and one config value's stored JSON text."""

    stored: StoredBody | None
    config_json: str | None


def get_body_and_config(
    session: Session, *, run_id: str, view: str, gzipped: bool, config_key: str
) -> BodyAndConfig:
    """The stored view and the config value its tag is checked against, in one statement."""
    connection = session.connection()
    keys = {"run_id": run_id, "view": view, "config_key": config_key}
    found = connection.execute(_BODY_AND_CONFIG[gzipped], keys).first()
    if found is not None:
        return BodyAndConfig(StoredBody(found[0], found[1], found[2]), found[3])
    return BodyAndConfig(None, connection.execute(_CONFIG_ALONE, keys).scalar())


def get_own_seat_body(
    session: Session, *, run_id: str, agent_id: str, seat: str, gzipped: bool
) -> StoredBody | None:
    """The stored agent view of ``seat``, only where a key of (``agent_id``, ``seat``) may read
    it (:func:`judge.server.store.runs.agent_reads`); None: take the full path."""
    keys = {"run_id": run_id, "view": agent_view_name(seat), **reader(agent_id=agent_id, seat=seat)}
    return _stored(session, _OWN_SEAT[gzipped], keys)


def get_own_seat_body_of_key(
    session: Session,
    *,
    run_id: str,
    agent_id: str,
    seat: str,
    key_prefix: str,
    key_sha256: str,
    gzipped: bool,
) -> StoredBody | None:
    """:func:`get_own_seat_body`, only while the presented key is live and issued to
    (``agent_id``, ``seat``): the credential's check and the read in one statement."""
    keys = {
        "run_id": run_id,
        "view": agent_view_name(seat),
        "key_prefix": key_prefix,
        "key_sha256": key_sha256,
        **reader(agent_id=agent_id, seat=seat),
    }
    return _stored(session, _OWN_SEAT_OF_LIVE_KEY[gzipped], keys)


def delete_views(session: Session, *, run_id: str) -> None:
    """Remove every stored view of the run (its scorecard is being replaced)."""
    session.execute(sa.delete(ScorecardViewRow).where(col(ScorecardViewRow.run_id) == run_id))
