"""What an importer is: the two kinds of entry in the table of :mod:`judge.tools.importers.registry`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest
from judge.tools.importers.common import ImportedRun


class FoundRuns(NamedTuple):
    """What a run importer read: the runs, and one line per record it had to leave out."""

    runs: list[ImportedRun]
    left_out: list[str]


class RunImporter(NamedTuple):
    """Another tool's records as runs: ``judge import NAME FILE``; ``read`` takes the file and
    ``--scenario-id`` (which an importer whose records name their scenario may ignore)."""

    name: str
    summary: str
    read: Callable[[Path, str | None], FoundRuns]


class SetImporter(NamedTuple):
    """A human-labelled set's files as calibration items; the set's manifest
    (``calibration_sets/<set>.yaml``) names it (``importer:``)."""

    name: str
    summary: str
    read: Callable[[CalibrationManifest, Path], list[CalibrationItem]]


Importer = RunImporter | SetImporter
