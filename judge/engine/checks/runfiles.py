"""Reading run files for checking, and rebuilding their worlds from replays when asked.

A run file ``X.json`` may sit next to ``X.replay.yaml``: the statements its tool calls
applied. With ``build_worlds`` the world is replayed into a temporary folder (databases are
not kept in repositories) and the run's relative database names resolve there.
"""

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
    """Read and validate one run file.

    Raises:
        RunFormatError: the file cannot be read or does not match the run format.
    """
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise RunFormatError(f"{path}: cannot read the run file: {exc.strerror}") from None
    return parse_run_json(text, source=str(path))


def replay_path(run_path: Path) -> Path:
    """Where a run's replay lives: ``X.replay.yaml`` beside ``X.json``."""
    return run_path.with_name(f"{run_path.stem}.replay.yaml")


def scenario_for(run: Run, scenarios: Sequence[Scenario]) -> Scenario:
    """The scenario a run belongs to, among those given.

    Raises:
        InputError: none of them is the run's scenario.
    """
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
    """Read runs; with `build_worlds`, replay each world into a temporary folder first.

    Runs without a replay file keep their own folder as base. The folder is removed when
    the context ends.

    Raises:
        InputError: one file is bad; InputErrors: several are (every file is read first, so
            each bad one is named, not only the first).
    """
    with tempfile.TemporaryDirectory(prefix="judge-worlds-") as tmp:
        loaded: list[RunFile] = []
        problems: list[InputError] = []
        for index, path in enumerate(paths):
            try:
                loaded.append(
                    _load(path, Path(tmp) / str(index), scenarios, build_worlds=build_worlds)
                )
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
