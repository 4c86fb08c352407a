"""``judge import otel FILE``: OpenTelemetry GenAI traces as runs (docs/integrations.md)."""

from __future__ import annotations

from pathlib import Path

from judge.tools.importers.entries import FoundRuns, RunImporter


def read_traces(path: Path, scenario_id: str | None) -> FoundRuns:
    """One run per trace; spans that cannot be read are left out, one line each."""
    from judge.tools.importers.otel_traces import read_otel

    found = read_otel(path, scenario_id=scenario_id)
    return FoundRuns(found.runs, found.broken)


IMPORTER = RunImporter(
    name="otel", summary="OpenTelemetry GenAI traces (OTLP/JSON)", read=read_traces
)
