"""The table from the name ``judge import NAME`` takes to its run or set importer (a set's
manifest names its set importer; docs/architecture.md, "Add an importer")."""

from __future__ import annotations

from pathlib import Path

from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest, CalibrationSetError
from judge.tools.importers import casino, dices, inspect, labels, otel
from judge.tools.importers.entries import Importer, RunImporter, SetImporter

IMPORTERS: dict[str, Importer] = {
    entry.name: entry
    for entry in (inspect.IMPORTER, otel.IMPORTER, casino.IMPORTER, dices.IMPORTER, labels.IMPORTER)
}


def run_importer(name: str) -> RunImporter | None:
    """The run importer called ``name``; None when ``name`` is a set (or nothing known)."""
    entry = IMPORTERS.get(name)
    return entry if isinstance(entry, RunImporter) else None


def set_importer(name: str) -> SetImporter:
    """The set importer called ``name`` (CalibrationSetError listing the known ones if none)."""
    entry = IMPORTERS.get(name)
    if isinstance(entry, SetImporter):
        return entry
    known = sorted(n for n, e in IMPORTERS.items() if isinstance(e, SetImporter))
    raise CalibrationSetError(f"importer: {name!r} is not a set importer (known: {known})")


def import_set(
    manifest: CalibrationManifest, path: Path, *, limit: int | None = None
) -> list[CalibrationItem]:
    items = set_importer(manifest.importer).read(manifest, path)
    return items[:limit] if limit is not None else items
