"""The table entry of the owners' labels as a calibration set (``judge export labels`` writes it;
read by :func:`judge.engine.calibration.owners.import_labels`)."""

from __future__ import annotations

from judge.engine.calibration.owners import import_labels
from judge.tools.importers.entries import SetImporter

IMPORTER = SetImporter(
    name="labels",
    summary="owners' labels: runs/ and labels.jsonl as judge export labels writes them",
    read=import_labels,
)
