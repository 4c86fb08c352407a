"""Scorecard files read as JSON Lines end a record at a newline only: a card's text may hold
U+2028 or U+0085, which JSON leaves unescaped and ``str.splitlines`` would cut it at."""

from __future__ import annotations

import json
from pathlib import Path

from judge.tools.importers.otel_traces import _json_lines
from judge.tools.tabular import _documents


def test_a_json_lines_record_holding_a_unicode_line_separator_is_read_whole() -> None:
    lines = [json.dumps({"note": "fair\u2028price\x85here"}, ensure_ascii=False), '{"n": 2}']
    text = "\n".join(lines) + "\n"

    documents = [data for _, data in _documents(text, Path("cards.jsonl"))]
    traces = _json_lines(Path("traces.jsonl"), text)

    assert documents == traces == [{"note": "fair\u2028price\x85here"}, {"n": 2}]
