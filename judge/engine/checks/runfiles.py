"""Reading run files for checking, and rebuilding their worlds from the replays beside them
(``X.replay.yaml`` next to ``X.json``) when asked."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from judge.core.domain.run import Run, parse_run_json
from judge.core.domain.scenario import Scenario
from judge.core.errors import InputError, InputErrors, RunFormatError
from judge.engine.checks.errors import ScenarioFormatError
from judge.engine.checks.worlds import build_world, load_replay


class RunFile(NamedTuple):
    """A run and the folder its relative database names are relative to."""

    run: Run
    base_dir: Path


def read_run(path: Path) -> Run:
    """Read and validate one run file (RunFormatError when unreadable or malformed)."""
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise RunFormatError(f"{path}: cannot read the run file: {exc.strerror}") from None
    return parse_run_json(text, source=str(path))


def replay_path(run_path: Path) -> Path:
    """Where a run's replay lives: ``X.replay.yaml`` beside ``X.json``."""
    return run_path.with_name(f"{run_path.stem}.replay.yaml")


def scenario_for(run: Run, scenarios: Sequence[Scenario]) -> Scenario:
    """The scenario a run belongs to, among those given (InputError when none is)."""
    for scenario in scenarios:
        if scenario.scenario_id == run.scenario_id:
            return scenario
    known = ", ".join(repr(s.scenario_id) for s in scenarios)
    raise InputError(
        f"run {run.run_id} is of scenario {run.scenario_id!r}; give its scenario file with "
        f"--scenario (given: {known})"
    )


@contextmanager
def run_files(
    paths: Sequence[Path], scenarios: Sequence[Scenario], *, build_worlds: bool
) -> Iterator[list[RunFile]]:
    """Read runs; with `build_worlds`, replay each world that has a replay file into a
    temporary folder, removed when the context ends. Every file is read before InputErrors
    names each bad one."""
    with tempfile.TemporaryDirectory(prefix="judge-worlds-") as tmp:
        loaded: list[RunFile] = []
        problems: list[InputError] = []
        for index, path in enumerate(paths):
            world_dir = Path(tmp) / str(index)
            try:
                loaded.append(_load(path, world_dir, scenarios, build_worlds=build_worlds))
            except InputError as exc:
                problems.append(exc)
        InputErrors.raise_found(problems)
        yield loaded


def _load(
    path: Path, world_dir: Path, scenarios: Sequence[Scenario], *, build_worlds: bool
) -> RunFile:
    run = read_run(path)
    if build_worlds and replay_path(path).is_file():
        _build(path, scenario_for(run, scenarios), world_dir)
        return RunFile(run, world_dir)
    return RunFile(run, path.parent)


def _build(path: Path, scenario: Scenario, out_dir: Path) -> None:
    if scenario.world is None:
        raise ScenarioFormatError(
            f"scenario {scenario.scenario_id!r} declares no world (schema_file, seed_file) "
            f"to replay {path} into"
        )
    build_world(scenario.world, load_replay(replay_path(path)), out_dir, path.stem)
