"""``judge import otel``'s reading of a trace file: OTLP/JSON (one request object, or one per
line), each trace mapped to a run by :mod:`judge.engine.traces.mapping`, the mapping the
service's live ingestion uses too (docs/integrations.md, "OpenTelemetry GenAI traces")."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from judge.core.errors import InputError
from judge.engine.traces.mapping import OtelImport, broken_line, default_scenario, trace_run
from judge.engine.traces.otlp import Decoded, Span, decode_request
from judge.engine.traces.records import safe_id
from judge.tools.importers.common import read_json_file


def read_otlp_json(path: Path) -> Decoded:
    """Spans from an OTLP/JSON file within the import bounds: one request object, or one per
    line (JSON Lines, as the collector's file exporter writes them)."""
    data = read_json_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: the trace file is not UTF-8 text") from None
    try:
        documents = [json.loads(text)]
    except json.JSONDecodeError:
        documents = _json_lines(path, text)
    decoded = [decode_request(document) for document in documents]
    return Decoded([s for d in decoded for s in d.spans], [b for d in decoded for b in d.broken])


def _json_lines(path: Path, text: str) -> list[Any]:
    documents = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            try:
                documents.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}: line {number} is not valid JSON: {exc.msg}") from None
    return documents


def read_otel(path: Path, *, scenario_id: str | None = None) -> OtelImport:
    """Every trace of an OTLP/JSON file as a run; spans that cannot be read are listed
    (InputError: not OTLP/JSON, or no readable span)."""
    decoded = read_otlp_json(path)
    if not decoded.spans:
        problems = (
            "; ".join(broken_line(b) for b in decoded.broken[:5]) or "the file holds no spans"
        )
        raise InputError(f"{path}: no readable span: {problems}")
    traces: dict[str, list[Span]] = defaultdict(list)
    for span in decoded.spans:
        traces[span.trace_id].append(span)
    broken_by_trace: dict[str | None, list[str]] = defaultdict(list)
    for b in decoded.broken:
        broken_by_trace[b.trace_id if b.trace_id in traces else None].append(broken_line(b))
    scenario = safe_id(scenario_id) if scenario_id else default_scenario(decoded.spans)
    runs = [
        trace_run(trace_id, spans, scenario, str(path), broken_by_trace[trace_id])
        for trace_id, spans in traces.items()
    ]
    return OtelImport(runs, broken_by_trace[None])
