"""Building a SQLite world from text: the scenario's schema, seed and horizon scripts and a
run's replay (the statements its tool calls applied, turn by turn). These scripts are trusted
repository files run with full rights, unlike checks."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from judge.core.domain.checks import StepState, WorldState
from judge.core.domain.scenario import WorldSource
from judge.engine.checks.errors import ScenarioFormatError
from judge.engine.checks.scenario import describe_errors


class ReplayStep(BaseModel):
    """The statements one turn's tool calls applied to the world."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: int = Field(ge=0)
    sql: str = ""


class Replay(BaseModel):
    """A run's effects on the world, in turn order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    steps: list[ReplayStep] = Field(default_factory=list)
    snapshot_steps: Annotated[bool, Field(description="write a database after each step")] = True


def load_replay(path: Path) -> Replay:
    """Read a replay file (YAML); ScenarioFormatError when unreadable or invalid."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return Replay.model_validate(data)
    except OSError as exc:
        raise ScenarioFormatError(f"{path}: cannot read the replay: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ScenarioFormatError(f"{path}: not valid YAML: {exc}") from None
    except ValidationError as exc:
        raise ScenarioFormatError(f"{path}: {describe_errors(exc)}") from None


def build_world(source: WorldSource, replay: Replay, out_dir: Path, stem: str) -> WorldState:
    """Replay a run into ``out_dir`` (``{stem}.turn{N}.db``, ``.end.db``, ``.horizon.db``); the
    world names them relative to it. ScenarioFormatError names a missing or failing script."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(":memory:") as work:
        _run_script(work, Path(source.schema_file))
        if source.seed_file:
            _run_script(work, Path(source.seed_file))
        steps = [
            _apply_step(work, step, out_dir, stem, replay.snapshot_steps) for step in replay.steps
        ]
        end = _snapshot(work, out_dir / f"{stem}.end.db")
        horizon = None
        if source.horizon_file:
            _run_script(work, Path(source.horizon_file))
            horizon = _snapshot(work, out_dir / f"{stem}.horizon.db")
    return WorldState(end_state=end, after_horizon=horizon, step_states=[s for s in steps if s])


def _apply_step(
    conn: sqlite3.Connection, step: ReplayStep, out_dir: Path, stem: str, snapshot: bool
) -> StepState | None:
    try:
        conn.executescript(step.sql)
    except sqlite3.Error as exc:
        raise ScenarioFormatError(f"replay turn {step.turn}: {exc}") from None
    path = out_dir / f"{stem}.turn{step.turn}.db"
    return StepState(turn=step.turn, database=_snapshot(conn, path)) if snapshot else None


def _run_script(conn: sqlite3.Connection, path: Path) -> None:
    try:
        conn.executescript(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioFormatError(f"{path}: cannot read the world script: {exc.strerror}") from None
    except sqlite3.Error as exc:
        raise ScenarioFormatError(f"{path}: the world script fails: {exc}") from None


def _snapshot(conn: sqlite3.Connection, path: Path) -> str:
    """Write the in-memory world to `path` (replacing it); return the file name."""
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as target:
        conn.backup(target)
    target.close()
    return path.name
