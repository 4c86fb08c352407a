"""Linear-time matching: every pattern run over agent-written text is an RE2 pattern
(docs/integrity.md, "Linear-time matching"). :func:`compile` gives ``\\w``, ``\\W``, ``\\s``,
``\\S``, ``\\d``, ``\\D`` their Unicode meaning in Python; ``\\b`` stays RE2's ASCII one (where a
non-ASCII letter touches an ASCII word RE2 sees a boundary: a rule matches more, never less).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any, Protocol, cast

import re2

#: Letters, numbers and the underscore: Python's ``\w`` on text.
WORD = r"\p{L}\p{N}_"


def spaces_but(chars: str) -> str:
    """The members of a class of white space but ``chars`` (Python's ``[^\\S...]``); every
    character ``str.isspace`` holds for is below U+3001."""
    return "".join(
        f"\\x{{{c:x}}}" for c in range(0x3001) if chr(c).isspace() and chr(c) not in chars
    )


#: Python's ``\s`` on text.
SPACE = spaces_but("")
_CLASSES = {"w": WORD, "s": SPACE, "d": r"\p{Nd}"}
#: RE2 keeps a compiled pattern and its DFA in this much memory (the rules' gaps of up to 80
#: characters make large programs); past it the DFA is rebuilt, still in linear time.
MAX_MEM = 64 << 20


class Match(Protocol):
    """A match, as ``re.Match`` has it (the part the code uses)."""

    def start(self, group: int = 0) -> int: ...
    def end(self, group: int = 0) -> int: ...
    def span(self, group: int = 0) -> tuple[int, int]: ...
    def group(self, group: int | str = 0) -> str: ...


#: Lone surrogates cannot be written in UTF-8, which RE2 reads: they are matched as U+FFFD.
_SURROGATES = {code: "\ufffd" for code in range(0xD800, 0xE000)}


class Pattern:
    """An RE2 pattern with ``re``'s calls on text (see :func:`compile`)."""

    __slots__ = ("_engine", "_regexp", "pattern")

    def __init__(self, pattern: str, regexp: Any) -> None:
        self.pattern = pattern
        self._regexp = regexp
        self._engine = _engine(regexp)

    def _call(self, name: str, text: str, *args: Any) -> Any:
        try:
            return getattr(self._regexp, name)(*args, text)
        except UnicodeEncodeError:
            return getattr(self._regexp, name)(*args, text.translate(_SURROGATES))

    def search(self, text: str) -> Match | None:
        return cast("Match | None", self._call("search", text))

    def match(self, text: str) -> Match | None:
        return cast("Match | None", self._call("match", text))

    def fullmatch(self, text: str) -> Match | None:
        return cast("Match | None", self._call("fullmatch", text))

    def finditer(self, text: str) -> Iterator[Match]:
        matches: Iterator[Match] = self._regexp.finditer(text)
        try:
            first = next(matches)
        except StopIteration:
            return iter(())
        except UnicodeEncodeError:
            return cast(Iterator[Match], self._regexp.finditer(text.translate(_SURROGATES)))
        return chain((first,), matches)

    def findall(self, text: str) -> list[Any]:
        return cast(list[Any], self._call("findall", text))

    def sub(self, repl: str | Callable[[Match], str], text: str) -> str:
        return cast(str, self._call("sub", text, repl))

    def found(self, text: str) -> bool:
        """Whether the pattern matches anywhere in ``text`` (``search`` without its match)."""
        return self.found_in(Subject(text))

    def found_in(self, subject: Subject) -> bool:
        """:meth:`found` of ``subject.text``, on its bytes encoded once."""
        engine, data = self._engine, subject.data
        if engine is None or data is None:
            return self.search(subject.text) is not None
        return bool(engine.Match(_UNANCHORED, data, 0, len(data))[0] != _NO_SPAN)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """The spans of the matches in ``text``, left to right, not overlapping. ASCII text
        is matched as bytes (same offsets), which spares the per-match offset decoding."""
        return iter(self.spans_in(Subject(text)))

    def spans_in(self, subject: Subject) -> Iterable[tuple[int, int]]:
        """:meth:`spans` of ``subject.text``, the same spans, with the text encoded once for
        every pattern run over it and no generator made when nothing matches (most rules on
        most texts)."""
        engine, data = self._engine, subject.data
        if engine is None and subject.ascii:
            return (m.span() for m in self._regexp.finditer(data))
        if engine is None or data is None:
            return (m.span() for m in self.finditer(subject.text))
        found: tuple[int, int] = engine.Match(_UNANCHORED, data, 0, len(data))[0]
        if found == _NO_SPAN:
            return ()
        if subject.ascii:
            return _byte_spans(engine, data, found)
        return (m.span() for m in self.finditer(subject.text))


class Subject:
    """A text that many patterns are run over (:meth:`Pattern.spans_in`), encoded once in
    UTF-8 (None when it holds a lone surrogate; an ASCII text's bytes have its offsets)."""

    __slots__ = ("ascii", "data", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()
        self.data = _utf8(text)


#: The ``re2`` module's compiled engine is read directly when this version of the module has
#: one (its ``_regexp`` and ``_Anchor``); otherwise every call goes through the module.
_UNANCHORED = getattr(getattr(re2, "_Anchor", None), "UNANCHORED", None)


def _engine(regexp: Any) -> Any:
    return getattr(regexp, "_regexp", None) if _UNANCHORED is not None else None


_NO_SPAN = (-1, -1)
#: The last text encoded by :func:`_utf8` and its bytes (the rules read one text in turn).
_ENCODED: tuple[str, bytes | None] = ("", b"")


def _utf8(text: str) -> bytes | None:
    """``text`` in UTF-8 (None when it holds a lone surrogate), the last one kept."""
    global _ENCODED
    last = _ENCODED
    if last[0] is text:
        return last[1]
    try:
        data: bytes | None = text.encode("utf-8")
    except UnicodeEncodeError:
        data = None
    _ENCODED = (text, data)
    return data


def _byte_spans(engine: Any, data: bytes, first: tuple[int, int]) -> Iterator[tuple[int, int]]:
    """What ``finditer(data)`` of the ``re2`` module gives, as spans, once its first search
    (from 0) found ``first``: read from its compiled engine directly (the module builds a
    match object per call, which costs more than the search itself on a short text), with the
    same steps past an empty match."""
    end = len(data)
    yield first
    if end == 0:
        return
    position = 1 if first[1] == 0 else first[1]
    while True:
        found: tuple[int, int] = engine.Match(_UNANCHORED, data, position, end)[0]
        if found == _NO_SPAN:
            return
        yield found
        if position == end:
            return
        position = position + 1 if position == found[1] else found[1]


def translate(pattern: str) -> str:
    """``pattern`` with Python's Unicode classes spelled out for RE2 (see the module)."""
    out: list[str] = []
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            code = pattern[index + 1]
            if code == "u":  # ``\\uXXXX`` is ``\\x{XXXX}`` in RE2
                out.append(f"\\x{{{pattern[index + 2 : index + 6]}}}")
                index += 6
                continue
            if code.lower() in _CLASSES:
                members = _CLASSES[code.lower()]
                if in_class and code.isupper():
                    raise ValueError(f"write \\{code} inside a class out: {pattern!r}")
                if in_class:
                    out.append(members)
                else:
                    out.append(f"[{'^' if code.isupper() else ''}{members}]")
            else:
                out.append(pattern[index : index + 2])
            index += 2
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            index += 1
            for head in ("^", "]"):  # a leading ``^`` and a literal first ``]``
                if pattern.startswith(head, index):
                    out.append(head)
                    index += 1
            continue
        if char == "]" and in_class:
            in_class = False
        out.append(char)
        index += 1
    return "".join(out)


def compile(pattern: str, *, multiline: bool = False, ignorecase: bool = False) -> Pattern:
    """An RE2 pattern of ``pattern`` (Python syntax, no look-around, see :func:`translate`)."""
    options = re2.Options()
    options.max_mem = MAX_MEM
    flags = ("m" if multiline else "") + ("i" if ignorecase else "")
    text = translate(pattern)
    return Pattern(pattern, re2.compile(f"(?{flags}){text}" if flags else text, options))
