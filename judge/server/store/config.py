"""Repository functions for platform_config values and their audit trail."""

from __future__ import annotations

from sqlmodel import Session, col, select

from judge.server.store.tables import ConfigAuditRow, PlatformConfigRow, utcnow


def get_config(session: Session, *, key: str) -> PlatformConfigRow | None:
    return session.get(PlatformConfigRow, key)


def put_config(
    session: Session, *, key: str, value_json: str, changed_by: str
) -> PlatformConfigRow:
    """Store a (validated) value and its audit record in the caller's transaction."""
    row = session.get(PlatformConfigRow, key)
    old = None if row is None else row.value_json
    if row is None:
        row = PlatformConfigRow(key=key, value_json=value_json, updated_by=changed_by)
    else:
        row.value_json, row.version = value_json, row.version + 1
        row.updated_by, row.updated_at = changed_by, utcnow()
    session.add(row)
    session.add(ConfigAuditRow(key=key, old_json=old, new_json=value_json, changed_by=changed_by))
    return row


def audit_trail(session: Session, *, key: str | None = None) -> list[ConfigAuditRow]:
    query = select(ConfigAuditRow).order_by(col(ConfigAuditRow.id))
    if key is not None:
        query = query.where(ConfigAuditRow.key == key)
    return list(session.exec(query).all())
