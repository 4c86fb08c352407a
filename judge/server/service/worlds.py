"""Who may name a run's world, and where a named world may be (docs/security.md, "Who may name a
world"); the rules are applied at intake and again when scoring starts."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator

from judge.core.domain.checks import POSTGRES_SCHEMES, WorldState
from judge.core.domain.run import Run
from judge.core.errors import InputError

WORLD_URLS_KEY = "state_database_urls"


class WorldRefusedError(InputError):
    """A run names a world its submitter may not name, or one outside the allowed places (422)."""


class StateDatabaseUrls(BaseModel):
    """`state_database_urls`: the PostgreSQL URLs owner runs may name as worlds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    urls: list[str] = Field(default_factory=list, max_length=100)

    @field_validator("urls")
    @classmethod
    def _postgres_urls(cls, urls: list[str]) -> list[str]:
        for url in urls:
            postgres = url.startswith(POSTGRES_SCHEMES) and len(url) <= 500
            if not postgres or any(c.isspace() for c in url):
                raise ValueError(
                    "each entry must be a postgresql:// URL (no spaces, at most 500 characters)"
                )
        return urls


class WorldPolicy(NamedTuple):
    scenarios_dir: Path | None
    allowed_urls: frozenset[str]


def named_databases(world: WorldState | None) -> list[tuple[str, str]]:
    """(field, locator) of every database a world names."""
    if world is None:
        return []
    named = [("world.end_state", world.end_state), ("world.after_horizon", world.after_horizon)]
    named += [
        (f"world.step_states.{i}.database", s.database) for i, s in enumerate(world.step_states)
    ]
    return [(field, locator) for field, locator in named if locator is not None]


def check_world(run: Run, *, policy: WorldPolicy, self_reported: bool) -> None:
    """Refuse a world its submitter may not name (WorldRefusedError names the field and rule)."""
    named = named_databases(run.world)
    if self_reported and named:
        fields = ", ".join(field for field, _ in named)
        raise WorldRefusedError(
            f"{fields}: a run submitted with an agent key may not name a database; worlds are named "
            "by the platform: submit the run with an owner token, or leave these fields out"
        )
    for field, locator in named:  # a PostgreSQL URL on the allow-list, or a confined path
        if not locator.startswith(POSTGRES_SCHEMES):
            confined_path(field, locator, policy.scenarios_dir)
        elif locator not in policy.allowed_urls:
            raise WorldRefusedError(
                f"{field}: this database URL is not on the owner's allow-list; an owner adds it to "
                f"platform_config {WORLD_URLS_KEY!r} first"
            )


def confined_path(field: str, locator: str, root: Path | None) -> Path:
    """The file ``locator`` names inside ``root``, refusing anything that leaves it."""
    if root is None:
        raise WorldRefusedError(
            f"{field}: JUDGE_SCENARIOS_DIR is not set, so the service opens no world files"
        )
    relative = Path(locator)
    if relative.is_absolute() or ".." in relative.parts or "\x00" in locator:
        raise WorldRefusedError(
            f"{field}: give a path relative to the scenarios folder, without '..'"
        )
    base = root.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base):
        raise WorldRefusedError(f"{field}: the path leaves the scenarios folder (through a link)")
    return target
