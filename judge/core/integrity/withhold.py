"""Replacing withheld spans with the fixed marker (docs/integrity.md): new events
(``model_copy``) for those that hold a span, the same objects for the others."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from judge.core.domain.integrity import WITHHELD_MARKER, WithheldSpan
from judge.core.domain.run import ActionEvent, TranscriptEvent
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


#: The pointer of a seat's name: never shown to a judge (it reads the seat's platform label),
#: so a span on it changes nothing here.
_SEAT = "/seat"
#: How a pointer names an object key rather than its member (``channels.KEY_SUFFIX``).
_KEY = "~k"


def _withheld_event(
    event: TranscriptEvent, index: int, fields: dict[str, list[WithheldSpan]]
) -> TranscriptEvent:
    fields = {p: s for p, s in fields.items() if p != _SEAT}
    if not fields:
        return event
    if isinstance(event, ActionEvent):
        update: dict[str, Any] = {"name": event.name, "args": event.args, "result": event.result}
        # values before keys, deeper keys before the keys that hold them
        for pointer in sorted(fields, key=lambda p: (p.endswith(_KEY), -p.count("/"))):
            spans = fields[pointer]
            if pointer == "/name":
                update["name"] = _replaced(update["name"], spans)
                continue
            root, _, rest = pointer[1:].partition("/")
            if root not in ("args", "result") or pointer in ("/args", "/result~k"):
                raise InputError(f"withheld span: event {index} has no text at {pointer}")
            is_key = rest.endswith(_KEY)
            tokens = _tokens(rest[: -len(_KEY)] if is_key else rest) if rest else []
            update[root] = _replaced_at(update[root], tokens, spans, pointer, is_key=is_key)
        return event.model_copy(update=update)
    if set(fields) == {"/content"}:
        content = _replaced(event.content, fields["/content"])
        return event.model_copy(update={"content": content})
    raise InputError(f"withheld span: event {index} ({event.kind}) has no text at {sorted(fields)}")


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")]


def _replaced_at(
    value: Any, tokens: list[str], spans: list[WithheldSpan], pointer: str, *, is_key: bool
) -> Any:
    """A copy of ``value`` with the string at ``tokens`` withheld (containers copied on the
    way down, everything else shared); ``is_key``: the last token's key, not its member."""
    if not tokens:
        if not isinstance(value, str):
            raise InputError(f"withheld span: {pointer} is not a string")
        return _replaced(value, spans)
    key, rest = tokens[0], tokens[1:]
    if is_key and not rest and isinstance(value, dict) and key in value:
        return _renamed(value, key, spans)
    if isinstance(value, dict) and key in value:
        return {**value, key: _replaced_at(value[key], rest, spans, pointer, is_key=is_key)}
    if isinstance(value, list) and key.isdigit() and int(key) < len(value):
        index = int(key)
        return [
            *value[:index],
            _replaced_at(value[index], rest, spans, pointer, is_key=is_key),
            *value[index + 1 :],
        ]
    raise InputError(f"withheld span: no value at {pointer}")


def _renamed(value: dict[str, Any], key: str, spans: list[WithheldSpan]) -> dict[str, Any]:
    """``value`` with ``key`` withheld in place (its member kept, in its place); a new key
    that another key already has is numbered, so no member is lost."""
    new, n = _replaced(key, spans), 1
    while new in value and new != key:
        n += 1
        new = f"{_replaced(key, spans)} ({n})"
    return {(new if k == key else k): item for k, item in value.items()}


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
