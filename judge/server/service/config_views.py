"""What owners read and write about platform_config: entries, changes, the audit trail."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from judge.engine.settings import Settings
from judge.server.service import platform
from judge.server.store import config as config_repo
from judge.server.store import eras as era_repo
from judge.server.store.tables import EraRow


class ConfigUpdate(BaseModel):
    """A new value for one key; validated by the key's model (unknown fields refused)."""

    model_config = ConfigDict(extra="forbid")

    value: dict[str, Any]


class ConfigEntry(BaseModel):
    key: str
    value: dict[str, Any]
    source: Literal["stored", "default"]
    version: int | None = None
    updated_by: str | None = None
    updated_at: datetime | None = None


class ConfigChanged(ConfigEntry):
    era_id: str = Field(description="the measurement era now current")
    era_changed: bool = Field(description="true when this change opened a new era")


class ConfigAudit(BaseModel):
    key: str
    old: dict[str, Any] | None
    new: dict[str, Any] | None
    changed_by: str
    changed_at: datetime


class Era(BaseModel):
    era_id: str
    stack: dict[str, Any]
    opened_by: str
    reason: str
    opened_at: datetime
    current: bool


def entry(session: Session, *, key: str, settings: Settings) -> ConfigEntry:
    value = platform.read_value(session, key=key, settings=settings)
    row = config_repo.get_config(session, key=key) if value.stored else None
    # times are read back in UTC
    stored = row.model_dump(include={"version", "updated_by", "updated_at"}) if row else {}
    return ConfigEntry(
        key=key,
        value=value.value.model_dump(mode="json"),
        source="stored" if value.stored else "default",
        **stored,
    )


def entries(session: Session, *, settings: Settings) -> list[ConfigEntry]:
    return [entry(session, key=k, settings=settings) for k in platform.CONFIG_MODELS]


def update(
    session: Session, *, key: str, body: ConfigUpdate, by: str, settings: Settings
) -> ConfigChanged:
    """Validate, store, audit; report the era now current and whether it moved."""
    platform.config_model(key)
    before = era_repo.current_era(session)
    changed = platform.update_value(session, key=key, value=body.value, by=by, settings=settings)
    current = entry(session, key=key, settings=settings)
    era_id = changed.era_id or ""
    moved = before is None or before.era_id != era_id
    # what this change stored, not what a concurrent later change may have stored since
    mine = {
        "value": changed.value.model_dump(mode="json"),
        "version": changed.version,
        "updated_by": by,
    }
    return ConfigChanged(**{**current.model_dump(), **mine}, era_id=era_id, era_changed=moved)


def _loads(text: str | None) -> dict[str, Any] | None:
    return None if text is None else dict(json.loads(text))


def audit(session: Session, *, key: str) -> list[ConfigAudit]:
    platform.config_model(key)
    return [
        ConfigAudit(
            **r.model_dump(include={"key", "changed_by", "changed_at"}),
            old=_loads(r.old_json),
            new=_loads(r.new_json),
        )
        for r in config_repo.audit_trail(session, key=key)
    ]


def era_public(row: EraRow, current: str | None) -> Era:
    stored = row.model_dump(exclude={"stack_json"})  # times are read back in UTC
    return Era(**stored, stack=json.loads(row.stack_json), current=row.era_id == current)


def eras(session: Session) -> list[Era]:
    latest = era_repo.current_era(session)
    return [era_public(r, latest.era_id if latest else None) for r in era_repo.list_eras(session)]
