"""Replacing withheld spans with the fixed marker (docs/integrity.md): new events
(``model_copy``) for those that hold a span, the same objects for the others."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from judge.core.domain.integrity import WITHHELD_MARKER, WithheldSpan
from judge.core.domain.run import ActionEvent, MessageEvent, TranscriptEvent
from judge.core.errors import InputError


def withhold(
    transcript: Sequence[TranscriptEvent], spans: Sequence[WithheldSpan]
) -> list[TranscriptEvent]:
    """The transcript with each span's text replaced by :data:`WITHHELD_MARKER`; InputError
    when a span names an event, field or range the transcript does not have."""
    by_event: dict[int, dict[str, list[WithheldSpan]]] = defaultdict(lambda: defaultdict(list))
    for span in spans:
        if span.event_index >= len(transcript):
            raise InputError(f"withheld span: no event {span.event_index} in the transcript")
        by_event[span.event_index][span.field].append(span)
    out = list(transcript)
    for index, fields in by_event.items():
        out[index] = _withheld_event(transcript[index], index, fields)
    return out


def _withheld_event(
    event: TranscriptEvent, index: int, fields: dict[str, list[WithheldSpan]]
) -> TranscriptEvent:
    if isinstance(event, MessageEvent) and set(fields) == {"/content"}:
        return event.model_copy(update={"content": _replaced(event.content, fields["/content"])})
    if isinstance(event, ActionEvent):
        name, args = event.name, event.args
        for pointer, spans in fields.items():
            if pointer == "/name":
                name = _replaced(name, spans)
            elif pointer.startswith("/args/"):
                args = _replaced_at(args, _tokens(pointer[len("/args/") :]), spans, pointer)
            else:
                raise InputError(f"withheld span: event {index} has no text at {pointer}")
        return event.model_copy(update={"name": name, "args": args})
    raise InputError(f"withheld span: event {index} ({event.kind}) has no text at {sorted(fields)}")


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")]


def _replaced_at(value: Any, tokens: list[str], spans: list[WithheldSpan], pointer: str) -> Any:
    """A copy of ``value`` with the string at ``tokens`` withheld (containers copied on the
    way down, everything else shared)."""
    if not tokens:
        if not isinstance(value, str):
            raise InputError(f"withheld span: {pointer} is not a string")
        return _replaced(value, spans)
    key, rest = tokens[0], tokens[1:]
    if isinstance(value, dict) and key in value:
        return {**value, key: _replaced_at(value[key], rest, spans, pointer)}
    if isinstance(value, list) and key.isdigit() and int(key) < len(value):
        index = int(key)
        return [
            *value[:index],
            _replaced_at(value[index], rest, spans, pointer),
            *value[index + 1 :],
        ]
    raise InputError(f"withheld span: no value at {pointer}")


def _replaced(text: str, spans: list[WithheldSpan]) -> str:
    """``text`` with each span (merged where they overlap) replaced by the marker."""
    merged: list[list[int]] = []
    for span in sorted(spans, key=lambda s: s.start):
        if span.end > len(text) or span.start > span.end:
            raise InputError(
                f"withheld span: {span.start}..{span.end} is outside the text of event "
                f"{span.event_index} at {span.field} ({len(text)} characters)"
            )
        if merged and span.start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], span.end)
        else:
            merged.append([span.start, span.end])
    pieces, done = [], 0
    for start, end in merged:
        pieces += [text[done:start], WITHHELD_MARKER]
        done = end
    return "".join(pieces) + text[done:]
