"""``judge import inspect LOG``: Inspect AI evaluation logs as runs (docs/integrations.md)."""

from __future__ import annotations

from pathlib import Path

from judge.tools.importers.entries import FoundRuns, RunImporter


def read_inspect(path: Path, scenario_id: str | None) -> FoundRuns:
    """The runs of one log; each sample names its own scenario, so ``scenario_id`` is unused."""
    from judge.tools.importers.inspect_log import runs_from_log  # Inspect itself loads late

    return FoundRuns(runs_from_log(path), [])


IMPORTER = RunImporter(
    name="inspect", summary="Inspect AI evaluation logs (.eval or .json)", read=read_inspect
)
