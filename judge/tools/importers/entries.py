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
    """Another tool's records as runs: ``judge import NAME FILE``.

    Attributes:
        name: the word after ``judge import``.
        summary: one line for ``judge import --help``.
        read: the file and the scenario id asked for (``--scenario-id``; an importer whose
            records name their scenario may ignore it) to the runs found.
    """

    name: str
    summary: str
    read: Callable[[Path, str | None], FoundRuns]


class SetImporter(NamedTuple):
    """A human-labelled set's own files as calibration items (runs with labels beside them).

    A set's manifest (``calibration_sets/<set>.yaml``) names its importer (``importer:``);
    ``judge import SET PATH`` reads the set with it.
    """

    name: str
    summary: str
    read: Callable[[CalibrationManifest, Path], list[CalibrationItem]]


Importer = RunImporter | SetImporter
