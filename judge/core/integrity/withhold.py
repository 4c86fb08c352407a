"""Replacing withheld spans with the fixed marker (docs/integrity.md): new events
(``model_copy``) for those that hold a span, the same objects for the others."""

from __future__ import annotations

import json
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


def rendered(value: Any) -> str:
    """A JSON value as the judge prompt shows it inside an action (``json.dumps``, keys
    sorted, non-ASCII kept): how the detector reads a number, a boolean, or a container too
    deep or too large to read member by member."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


#: ``_renamed``'s default: the renamed key keeps its member.
_KEEP: Any = object()
#: The pointer of a seat's own name, read in a run an agent submitted: never shown to a judge
#: (it reads the seat's platform label), so a span on it changes nothing here.
SEAT_POINTER = "/seat"
#: A pointer ending so names the key of the member the rest of the pointer addresses; ``~``
#: followed by ``k`` cannot come out of RFC 6901 escaping, so no member's pointer ends so.
KEY_SUFFIX = "~k"
#: A pointer ending so names a member of an object whose value is a number or a boolean,
#: read whole as the prompt shows it (``"score": 1.0``): such a key and value say together
#: what neither says alone, and a span on it withholds both. ``~`` followed by ``m`` cannot
#: come out of RFC 6901 escaping either.
MEMBER_SUFFIX = "~m"


def _withheld_event(
    event: TranscriptEvent, index: int, fields: dict[str, list[WithheldSpan]]
) -> TranscriptEvent:
    fields = {p: s for p, s in fields.items() if p != SEAT_POINTER}
    if not fields:
        return event
    if isinstance(event, ActionEvent):
        update: dict[str, Any] = {"name": event.name, "args": event.args, "result": event.result}
        # values before keys, deeper keys before the keys that hold them
        named = (KEY_SUFFIX, MEMBER_SUFFIX)
        for pointer in sorted(fields, key=lambda p: (p.endswith(named), -p.count("/"))):
            spans = fields[pointer]
            if pointer == "/name":
                update["name"] = _replaced(update["name"], spans)
                continue
            root, _, rest = pointer[1:].partition("/")
            if root not in ("args", "result") or pointer in ("/args", "/result~k"):
                raise InputError(f"withheld span: event {index} has no text at {pointer}")
            suffix = rest[-2:] if rest.endswith(named) else ""
            tokens = _tokens(rest[: len(rest) - len(suffix)]) if rest else []
            update[root] = _replaced_at(update[root], tokens, spans, pointer, suffix=suffix)
        return event.model_copy(update=update)
    if set(fields) == {"/content"}:
        content = _replaced(event.content, fields["/content"])
        return event.model_copy(update={"content": content})
    raise InputError(f"withheld span: event {index} ({event.kind}) has no text at {sorted(fields)}")


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")]


def _replaced_at(
    value: Any, tokens: list[str], spans: list[WithheldSpan], pointer: str, *, suffix: str
) -> Any:
    """A copy of ``value`` with the text at ``tokens`` withheld (containers copied on the way
    down, everything else shared); ``suffix``: ``~k`` the last token's key, not its member;
    ``~m`` the last token's key and its number or boolean value, both whole."""
    if not tokens:
        if isinstance(value, str):
            return _replaced(value, spans)
        if suffix or value is None:
            raise InputError(f"withheld span: {pointer} holds no text")
        return _replaced(rendered(value), spans)  # read as its rendering, shown as text
    key, rest = tokens[0], tokens[1:]
    if suffix == KEY_SUFFIX and not rest and isinstance(value, dict) and key in value:
        return _renamed(value, key, _replaced(key, spans))
    if suffix == MEMBER_SUFFIX and not rest and isinstance(value, dict) and key in value:
        if isinstance(value[key], str | dict | list) or value[key] is None:
            raise InputError(f"withheld span: {pointer} holds no number or boolean")
        return _renamed(value, key, WITHHELD_MARKER, WITHHELD_MARKER)
    if isinstance(value, dict) and key in value:
        return {**value, key: _replaced_at(value[key], rest, spans, pointer, suffix=suffix)}
    if isinstance(value, list) and key.isdigit() and int(key) < len(value):
        index = int(key)
        return [
            *value[:index],
            _replaced_at(value[index], rest, spans, pointer, suffix=suffix),
            *value[index + 1 :],
        ]
    raise InputError(f"withheld span: no value at {pointer}")


def _renamed(value: dict[str, Any], key: str, withheld: str, member: Any = _KEEP) -> dict[str, Any]:
    """``value`` with ``key`` renamed ``withheld`` in place (its member kept, or replaced by
    ``member``); a new key that another key already has is numbered, so no member is lost."""
    new, n = withheld, 1
    while new in value and new != key:
        n += 1
        new = f"{withheld} ({n})"
    return {
        (new if k == key else k): (member if k == key and member is not _KEEP else item)
        for k, item in value.items()
    }


def _replaced(text: str, spans: list[WithheldSpan]) -> str:
    """``text`` with each span (merged where they overlap) replaced by the marker."""
    for span in sorted(spans, key=lambda s: s.start):
        if span.end > len(text) or span.start > span.end:
            raise InputError(
                f"withheld span: {span.start}..{span.end} is outside the text of event "
                f"{span.event_index} at {span.field} ({len(text)} characters)"
            )
    pieces, done = [], 0
    for start, end in merged([(span.start, span.end) for span in spans]):
        pieces += [text[done:start], WITHHELD_MARKER]
        done = end
    return "".join(pieces) + text[done:]


def merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges in order, those that overlap or touch merged into one."""
    out: list[list[int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(a, b) for a, b in out]
