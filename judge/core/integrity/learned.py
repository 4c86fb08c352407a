"""The learned layer of the detector (docs/integrity.md, "Learned layer"): a logistic
regression over hashed character n-grams that scores each sentence of a seat's text for being
addressed to whoever scores it. It reads the sentences the rules left alone; a sentence over
the shipped threshold is withheld like a rule's match, as a ``learned`` finding.

Features: the sentence folded as the rules read it (``fold``), then a few more characters
undone (variation selectors and other non-spacing marks dropped, filler characters and ``_``
``-`` read as spaces, small capitals and dotless i read as letters, digits as ``0``), spaces
squeezed, padded with a space either side; every character 1- to 5-gram hashed into
:data:`BUCKETS` buckets, counts scaled by one over the square root of the sentence's n-gram
count. The work is linear in the text's length (numpy over the code points; no regular
expression) and bounded per seat by :data:`MAX_CHARS`.
"""

from __future__ import annotations

import io
import unicodedata
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from judge.core.integrity.budget import checkpoint
from judge.core.integrity.fold import AsciiTranslation, by_runs, fold
from judge.core.integrity.matching import Segments, _split
from judge.core.integrity.scan import Piece, TextField

#: Version of the shipped model (its file is ``model/classifier-<version>.npz``). Part of
#: ``DETECTOR_VERSION``, so of the era.
MODEL_VERSION = "v5"
#: Hash buckets of the n-gram features.
BUCKETS = 1 << 17
#: The n-gram lengths read.
NGRAMS = (1, 2, 3, 4, 5)
#: The word n-gram lengths read (words: the runs between spaces of the normalised sentence).
WORDS: tuple[int, ...] = ()
#: At most this many characters of a seat's text are read by the learned layer (the rules
#: read all of it); the rest of a longer seat's text is left to the rules.
MAX_CHARS = 1 << 18
#: Sentences longer than this are scored in windows of this length, half overlapping, so a
#: planted line in a long unpunctuated paragraph is not averaged away.
WINDOW = 160
#: A text of more than one line and at most this many characters is also scored whole.
WHOLE_CHARS = 2 * WINDOW
#: Pieces of fewer distinct characters than this (after normalising) score 0.
MIN_DISTINCT = 6
#: Sentences shorter than this (after normalising) are not scored.
MIN_CHARS = 12
#: A sentence's span is given back without this white space at either end.
_SPACES = " \t\r\n"
_SEPARATOR = 0
_LAST = 1 << 62
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_STEP = np.uint64(0x100000001B3)
_SHIFT = np.uint64(64 - BUCKETS.bit_length() + 1)
_STEP_INVERSE = np.uint64(pow(int(_STEP), -1, 1 << 64))
_SPACE = 32
#: Word n-grams hash apart from character n-grams of the same text.
_WORD_SALT = 0x5BD1E995
#: Characters an attacker uses as spaces that fold keeps as they are.
_FILLERS = "\u3164\u2800\u115f\u1160\uffa0\u180e\u2062\u2063_-\u2010\u2011\u00b7"
_RTL_OVERRIDES = ("\u202e", "\u2067", "\u202b")


class Quantised(NamedTuple):
    """Weights as the shipped file holds them: an int8 code per bucket and one scale. Read
    per n-gram, they are the float32 weights to the bit, from a quarter of the memory (a
    scan reads most of the table, so fewer cache lines to fetch, fewer of the rules' evicted)."""

    codes: npt.NDArray[np.int8]
    scale: np.float32

    def weights(self) -> npt.NDArray[np.float32]:
        """The whole table, as ``load_bytes`` computes it."""
        return self.codes.astype(np.float32) * self.scale

    def read(self, buckets: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """The weights of these buckets: those of :meth:`weights`, code by code."""
        found = self.codes[buckets].astype(np.float32)
        found *= self.scale
        return found


#: A weight table as ``weight_sums`` reads it.
Weights: TypeAlias = npt.NDArray[np.float32] | Quantised


@dataclass(frozen=True)
class Model:
    """The shipped weights: one per bucket, a bias and the threshold on the probability;
    ``quantised``: the same weights as the file holds them, read by a scan when given."""

    version: str
    weights: npt.NDArray[np.float32]
    bias: float
    threshold: float
    quantised: Quantised | None = None

    def probabilities(self, sentences: Sequence[str]) -> npt.NDArray[np.float64]:
        """The probability of each (already normalised) sentence being judge-directed."""
        found = self._fitted(sentences)
        found[[i for i, s in enumerate(sentences) if _few_distinct(s)]] = 0.0
        return found

    def over_threshold(self, sentences: Sequence[str]) -> npt.NDArray[np.bool_]:
        """Whether each sentence's probability is at least the threshold: the sentences of
        few distinct characters are looked at only among those the fit puts over it."""
        over = self._fitted(sentences) >= self.threshold
        for i in np.flatnonzero(over).tolist():
            if _few_distinct(sentences[i]):
                over[i] = 0.0 >= self.threshold
        return over

    def _fitted(self, sentences: Sequence[str]) -> npt.NDArray[np.float64]:
        """The regression's probability of each sentence, before :func:`_few_distinct`."""
        if not sentences:
            return np.zeros(0)
        sums, counts = weight_sums(sentences, self.quantised or self.weights)
        logits = sums / np.sqrt(np.maximum(counts, 1)) + self.bias
        found: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-logits))
        return found


def _few_distinct(sentence: str) -> bool:
    """Whether a piece holds fewer than MIN_DISTINCT distinct characters, so no request (one
    character or a pair repeated): its few n-grams, repeated, would weigh too much, and it
    scores 0. A sentence whose first 32 characters hold enough distinct ones is not counted."""
    return len(set(sentence[:32])) < MIN_DISTINCT and len(set(sentence)) < MIN_DISTINCT


@cache
def _extra_table() -> dict[int, str]:
    """What the features read for characters ``fold`` keeps but an attacker hides behind."""
    table: dict[int, str] = {ord(c): " " for c in _FILLERS}
    table[ord("\u0131")] = "i"
    small_capitals = (0x0280, 0x0262, 0x026A, 0x0274, 0x0276, 0x028F, 0x029C, 0x029F, 0xA7AF)
    for code in (*range(0x1D00, 0x1D2C), *small_capitals):
        name = unicodedata.name(chr(code), "")
        if "SMALL CAPITAL" in name and len(name.split()[-1]) == 1:
            table[code] = name.split()[-1].lower()
    for digit in "0123456789":
        table[ord(digit)] = "0"
    return table


class _Extra(dict[int, str]):
    """``_extra_table`` plus every non-spacing mark dropped, filled on first sight."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        mapped = _extra_table().get(code)
        if mapped is None:
            category = unicodedata.category(char)
            mapped = "" if category in ("Mn", "Me") else " " if category[0] in "ZC" else char
        self[code] = mapped
        return mapped


_EXTRA = _Extra()
#: ``_EXTRA`` with the line break kept: many texts without one are normalised in one pass,
#: joined by it (:func:`normalised`).
_EXTRA_KEEPING_LINES = _Extra()
_EXTRA_KEEPING_LINES[ord("\n")] = "\n"


#: ``_EXTRA`` and ``_EXTRA_KEEPING_LINES`` on an ASCII stretch (``fold.by_runs``).
_EXTRA_ASCII = AsciiTranslation(_EXTRA)
_EXTRA_KEEPING_LINES_ASCII = AsciiTranslation(_EXTRA_KEEPING_LINES)


def _extra(text: str) -> str:
    return by_runs(text, _EXTRA_ASCII, _EXTRA)


def _extra_keeping_lines(text: str) -> str:
    return by_runs(text, _EXTRA_KEEPING_LINES_ASCII, _EXTRA_KEEPING_LINES)


def normalise(text: str) -> str:
    """The text the features read (see the module docstring)."""
    folded = _extra(fold(text).text)
    return " ".join(folded.split())


def _has_override(text: str) -> bool:
    return any(mark in text for mark in _RTL_OVERRIDES)


def variants(text: str) -> list[str]:
    """The normalised text, and the text read backwards when it holds a right-to-left
    override (reversed letters shown the right way round)."""
    plain = normalise(text)
    if _has_override(text):
        return [plain, plain[::-1]]
    return [plain]


def normalised(texts: Sequence[str]) -> list[list[str]]:
    """:func:`variants` of each text, the same strings: the ASCII texts folded and translated
    in one pass, the others in another (each character is read on its own, so the pass over
    the joined texts is the passes over each; ASCII text alone takes Python's fast path)."""
    ascii_ones = [t.isascii() for t in texts]
    out: list[list[str]] = [[] for _ in texts]
    for wanted in (True, False):
        picked = [i for i, plain in enumerate(ascii_ones) if plain is wanted]
        for i, found in zip(picked, _together([texts[i] for i in picked]), strict=True):
            out[i] = found
    return out


def _together(texts: list[str]) -> list[list[str]]:
    """:func:`variants` of each text, in one pass when none holds a line break."""
    joined = "\n".join(texts)
    if texts and joined.count("\n") == len(texts) - 1:
        read = _extra_keeping_lines(fold(joined).text).split("\n")
        if len(read) == len(texts):
            plain = [" ".join(one.split()) for one in read]
            if not _has_override(joined):
                return [[one] for one in plain]
            return [
                [one, one[::-1]] if _has_override(text) else [one]
                for one, text in zip(plain, texts, strict=True)
            ]
    return [variants(text) for text in texts]


def ngram_rows(sentences: Sequence[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For every character n-gram of every sentence (padded with a space either side): the
    sentence's index and the n-gram's bucket, the n-grams in order of their length, then of
    where they start. All lengths are hashed in one array (a row per length), so the numpy
    calls do not grow with the number of lengths read."""
    joined = "\0" + "\0".join(f" {s} " for s in sentences) + "\0"
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    size = len(codes)
    is_sep = codes == _SEPARATOR
    sentence = np.cumsum(is_sep) - 1
    # How far each place is from the next separator (the joined text ends in one): an n-gram
    # starting there is inside one sentence when that is at least n.
    index = np.arange(size)
    following = np.minimum.accumulate(np.where(is_sep, index, size)[::-1])[::-1]
    valid = (following - index)[None, :] >= _LENGTHS
    if _UNREAD:
        valid[_UNREAD] = False
    buckets = _buckets(_hashes(codes)[valid])
    rows = np.broadcast_to(sentence, (_LONGEST, size))[valid].astype(np.int64, copy=False)
    word_rows, word_buckets = _words(codes, sentence)
    return np.concatenate([rows, word_rows]), np.concatenate([buckets, word_buckets])


def _hashes(codes: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The hash of the n-gram at each place of ``codes`` (zeros past the end), a row per
    length up to :data:`_LONGEST`, each written in place (no temporary arrays): the row of
    length n is the row of n - 1 times the step, plus the n-th code, plus n (mod 2**64)."""
    size = len(codes)
    padded = np.concatenate([codes, np.zeros(_LONGEST, dtype=np.uint64)])
    hashed = np.empty((_LONGEST, size), dtype=np.uint64)
    previous = np.zeros(size, dtype=np.uint64)
    for n in range(1, _LONGEST + 1):
        row = hashed[n - 1]
        np.multiply(previous, _STEP, out=row)
        row += padded[n - 1 : n - 1 + size]
        row += np.uint64(n)
        previous = row
    return hashed


def _buckets(hashed: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """The bucket of each hash, mixed in place: the top bits of a 64-bit value, always below
    BUCKETS, so the same numbers as int64."""
    hashed ^= hashed >> np.uint64(29)
    hashed *= _MULTIPLIER
    hashed >>= _SHIFT
    return hashed.view(np.int64)


_POWERS: list[tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]] = []


def _powers(size: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """``B**i`` and ``B**-i`` (mod 2**64) for ``i`` below at least ``size``: computed once
    for the longest text seen so far (doubling), read-only after."""
    if _POWERS and len(_POWERS[-1][0]) >= size:
        return _POWERS[-1]
    length = max(size, 2 * len(_POWERS[-1][0]) if _POWERS else 1 << 14)
    tables = []
    for base in (_STEP, _STEP_INVERSE):
        table = np.full(length, base, dtype=np.uint64)
        table[0] = 1
        tables.append(np.cumprod(table, dtype=np.uint64))
    _POWERS.append((tables[0], tables[1]))
    return _POWERS[-1]


def _words(
    codes: npt.NDArray[np.uint64], sentence: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The sentence and bucket of each word n-gram (:data:`WORDS`) of the joined, padded
    sentences: the text between two spaces of one sentence, the spaces between its words
    kept. A substring's hash comes from prefix sums (linear, no loop over words): with
    ``S[i]`` the sum of ``c[j] * B**-j`` up to ``i`` (B odd, so invertible mod 2**64), the
    polynomial hash of ``c[a+1 .. b-1]`` is ``(S[b-1] - S[a]) * B**(b-1)``."""
    if not WORDS:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    size = len(codes)
    powers, inverse = _powers(size)
    prefix = np.cumsum(codes * inverse[:size], dtype=np.uint64)
    spaces = np.flatnonzero(codes == _SPACE)
    rows_out, buckets_out = [], []
    for n in WORDS:
        if len(spaces) <= n:
            continue
        a, b = spaces[:-n], spaces[n:]
        # n words between them: one sentence, and no two spaces next to each other on the way
        gaps = np.diff(spaces) > 1
        whole = sentence[a] == sentence[b]
        for k in range(n):
            whole &= gaps[k : len(gaps) - n + 1 + k]
        a, b = a[whole], b[whole]
        hashed = (prefix[b - 1] - prefix[a]) * powers[b - 1] + np.uint64(_WORD_SALT * n)
        rows_out.append(sentence[a].astype(np.int64, copy=False))
        buckets_out.append(_buckets(hashed))
    if not rows_out:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(rows_out), np.concatenate(buckets_out)


def weight_sums(
    sentences: Sequence[str], weights: Weights
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Each sentence's sum of ``weights`` over its n-grams' buckets, and its number of
    n-grams: the sums ``np.bincount(*ngram_rows(sentences), ...)`` gives, without gathering
    the n-grams of each sentence (an n-gram that crosses a sentence's end reads a zero weight
    instead): a few numpy passes per n-gram length over the joined code points, then one sum
    per sentence. Where the sentences end is known from their lengths (normalised text holds
    no NUL). ``weights``: the float table or its :class:`Quantised` form (the same sums)."""
    if not sentences:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    # each sentence padded with a space either side, after a separator (one more at the end)
    padded = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences)) + 2
    ends = np.cumsum(padded + 1)  # the separator after each sentence
    joined = "\0 " + " \0 ".join(sentences) + " \0"
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    found = _read(weights, _buckets(_hashes(codes)))
    # the n-grams that reach a separator: every one at the first, n - 1 before each other one
    found[:, 0] = 0.0
    found[_REACHING_ROWS, np.maximum(ends[:, None] - _REACHING_BACK, 0)] = 0.0
    if _UNREAD:
        found[_UNREAD] = 0.0
    total = found.sum(axis=0, dtype=np.float64)
    # the separator before a sentence and its padded text are the sentence's
    sentence = np.repeat(np.arange(len(sentences) + 1), np.append(padded + 1, 1))
    sums = np.bincount(sentence, weights=total, minlength=len(sentences) + 1)[: len(sentences)]
    # a sentence padded to length L has L - n + 1 n-grams of length n
    counts = np.maximum(padded[:, None] - _BEFORE_LAST, 0).sum(axis=1)
    word_rows, word_buckets = _words(codes, sentence)
    if len(word_rows):
        found_words = _read(weights, word_buckets)
        sums += np.bincount(word_rows, weights=found_words, minlength=len(sentences))
        counts = counts + np.bincount(word_rows, minlength=len(sentences))
    return sums, counts  # type: ignore[return-value]


def _read(weights: Weights, buckets: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    if isinstance(weights, Quantised):
        return weights.read(buckets)
    return weights[buckets]


#: The longest n-gram, each length as a column (to compare with), and the rows of the
#: lengths not read.
_LONGEST = max(NGRAMS)
_LENGTHS = np.arange(1, _LONGEST + 1)[:, None]
_UNREAD = [n - 1 for n in range(1, _LONGEST + 1) if n not in NGRAMS]
#: Each n-gram length's row and how far before a separator an n-gram of that length starts
#: when it reaches the separator (0 to n - 1): such an n-gram crosses a sentence's end.
_REACHING_ROWS = np.array([n - 1 for n in range(1, _LONGEST + 1) for _ in range(n)])
_REACHING_BACK = np.array([back for n in range(1, _LONGEST + 1) for back in range(n)])
#: Each n-gram length read less one: a text of length L has L - (n - 1) n-grams of length n.
_BEFORE_LAST = np.array(NGRAMS) - 1


def load_bytes(raw: bytes) -> Model:
    """The model in an npz file's bytes (``bench/integrity_learned.py`` writes them: int8
    weights with one scale, the bias, the threshold, the version and the feature settings)."""
    with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
        words = tuple(npz["words"].tolist()) if "words" in npz else ()
        if (
            int(npz["buckets"]) != BUCKETS
            or tuple(npz["ngrams"].tolist()) != NGRAMS
            or words != WORDS
        ):
            raise ValueError("the learned model's features do not match this detector's")
        quantised = Quantised(npz["weights"].astype(np.int8), np.float32(npz["scale"]))
        return Model(
            version=str(npz["version"]),
            weights=quantised.weights(),
            bias=float(npz["bias"]),
            threshold=float(npz["threshold"]),
            quantised=quantised,
        )


_OVERRIDE: list[Model | None] = []


@contextmanager
def using(candidate: Model | None) -> Iterator[None]:
    """Scans inside the block (on any thread) use ``candidate`` instead of the shipped model,
    or no learned layer with None: the training script measures a model it has not shipped,
    and the rules alone."""
    _OVERRIDE.append(candidate)
    try:
        yield
    finally:
        _OVERRIDE.pop()


def model() -> Model | None:
    """The model scans use: the shipped one, unless :func:`using` says otherwise."""
    return _OVERRIDE[-1] if _OVERRIDE else shipped()


@cache
def shipped() -> Model:
    """The shipped model, read once per process from the package's own data (the only file
    the pure core reads, like a module it imports)."""
    name = f"classifier-{MODEL_VERSION}.npz"
    found = load_bytes(resources.files("judge.core.integrity").joinpath("model", name).read_bytes())
    if found.version != MODEL_VERSION:
        raise ValueError(f"{name} holds model {found.version}, not {MODEL_VERSION}")
    return found


def windows(text: str) -> Iterator[tuple[int, int]]:
    """``[start, end)`` ranges of a sentence that are scored: all of it, or half-overlapping
    windows of :data:`WINDOW` characters."""
    if len(text) <= WINDOW:
        yield 0, len(text)
        return
    step = WINDOW // 2
    for start in range(0, len(text) - step, step):
        yield start, min(len(text), start + WINDOW)


def chunks(text: str) -> Iterator[tuple[str, list[int], bool]]:
    """Each distinct scored piece of ``text`` that is long enough to score, every offset it
    occurs at, and whether it is a whole line: each sentence, then each line of more than one
    sentence (a line is what the model was trained on; a sentence is what it withholds when
    it can), then the whole text when it holds more than one line and at most
    :data:`WHOLE_CHARS` characters (a request cut over lines is read whole; its line breaks
    read as spaces, as the features read them), or the windows of any of them when long."""
    segments = Segments(text)
    for piece, origins in zip(segments.distinct, segments.occurrences, strict=True):
        yield from _windowed(piece, origins, False)
    if len(segments.distinct) == 1 and "\n" not in text:
        return
    lines: dict[str, list[int]] = {}
    sentences = set(segments.distinct)
    at = 0
    for line in text.split("\n"):
        if line not in sentences:
            lines.setdefault(line, []).append(at)
        at += len(line) + 1
    for line, origins in lines.items():
        yield from _windowed(line, origins, True)
    if "\n" in text.strip() and len(text) <= WHOLE_CHARS:
        whole = text.replace("\n", " ")
        if whole not in lines and whole not in sentences:
            yield from _windowed(whole, [0], True)


def _windowed(piece: str, origins: list[int], line: bool) -> Iterator[tuple[str, list[int], bool]]:
    if len(piece) <= WINDOW:  # one window, the piece itself (most sentences)
        if len(piece.strip()) >= MIN_CHARS:
            yield piece, list(origins), line
        return
    for start, end in windows(piece):
        chunk = piece[start:end]
        if len(chunk.strip()) >= MIN_CHARS:
            yield chunk, [o + start for o in origins], line


#: Where a scored piece occurs: its field, its offset, and whether it is a whole line.
_Place = tuple[TextField, int, bool]


def learned_pieces(fields: Sequence[TextField], known: dict[TextField, list[Piece]]) -> list[Piece]:
    """The sentences (or lines) of the seat's fields the model scores over its threshold, each
    one piece of kind ``learned``: a sentence unless a rule's span of the field meets it or a
    learned sentence already holds it, a whole line only when nothing in it is withheld
    already."""
    return learned_pieces_of_seats([(fields, known)])[0]


def learned_pieces_of_seats(
    seats: Sequence[tuple[Sequence[TextField], dict[TextField, list[Piece]]]],
) -> list[list[Piece]]:
    """:func:`learned_pieces` of each seat, the pieces of all of them scored in one batch (a
    piece's score does not depend on the others in its batch)."""
    found = model()
    if found is None:
        return [[] for _ in seats]
    wheres = [_scored_places(fields, known) for fields, known in seats]
    texts: list[str] = []
    owners: list[tuple[int, int]] = []
    read = iter(normalised([chunk for where in wheres for chunk in where]))
    for seat, where in enumerate(wheres):
        for index in range(len(where)):
            for text in next(read):
                if len(text) >= MIN_CHARS:
                    texts.append(text)
                    owners.append((seat, index))
    if not texts:
        return [[] for _ in seats]
    checkpoint()
    over = found.over_threshold(texts)
    flagged: list[set[int]] = [set() for _ in seats]
    for i in np.flatnonzero(over).tolist():
        flagged[owners[i][0]].add(owners[i][1])
    return [
        _placed(where, sorted(chosen), known) if chosen else []
        for where, chosen, (_, known) in zip(wheres, flagged, seats, strict=True)
    ]


def _one_sentence_at_once(text: str) -> bool:
    """Whether ``_split`` keeps the text (no line break) whole, seen at once: an ASCII text
    without a sentence mark or a tab (a few scans in C); False: split it to know."""
    return (
        text.isascii()
        and "." not in text
        and "!" not in text
        and "?" not in text
        and "\t" not in text
    )


def _scored_places(
    fields: Sequence[TextField], known: dict[TextField, list[Piece]]
) -> dict[str, list[_Place]]:
    """Each distinct piece of the seat's fields to score, and where it occurs."""
    where: dict[str, list[_Place]] = {}
    budget = MAX_CHARS
    for field in fields:
        if budget <= 0:
            break
        withheld = known.get(field)
        if withheld and any(p.start == 0 and p.end >= len(field.text) for p in withheld):
            continue  # withheld whole already
        checkpoint()
        text = field.text[:budget]
        budget -= len(text)
        if len(text) < MIN_CHARS:
            continue  # no piece of it is long enough to score (an action's name, a number)
        if len(text) <= WINDOW and "\n" not in text:  # most messages
            for chunk, origin, line in _short_line_chunks(text):
                where.setdefault(chunk, []).append((field, origin, line))
            continue
        for chunk, origins, line in chunks(text):
            where.setdefault(chunk, []).extend((field, o, line) for o in origins)
    return where


def _short_line_chunks(text: str) -> list[tuple[str, int, bool]]:
    """What :func:`chunks` gives for one line of at most :data:`WINDOW` characters, one
    offset at a time: each distinct sentence long enough to score at each place it occurs,
    then the line when it holds more than one sentence."""
    parts = [text] if _one_sentence_at_once(text) else _split(text)
    if len(parts) == 1:  # one sentence
        return [(text, 0, False)] if len(text.strip()) >= MIN_CHARS else []
    segments = Segments(text, parts=parts)
    out = [
        (piece, origin, False)
        for piece, places in zip(segments.distinct, segments.occurrences, strict=True)
        if len(piece.strip()) >= MIN_CHARS
        for origin in places
    ]
    sentences = segments.distinct
    if len(sentences) != 1 and text not in sentences and len(text.strip()) >= MIN_CHARS:
        out.append((text, 0, True))
    return out


def _placed(
    where: dict[str, list[_Place]], flagged: list[int], known: dict[TextField, list[Piece]]
) -> list[Piece]:
    """The flagged pieces (by their place in ``where``) as pieces of kind ``learned``."""
    pending = list(where)
    places = [(pending[i], place) for i in flagged for place in where[pending[i]]]
    rules = {f: sorted((p.start, p.end) for p in ps) for f, ps in known.items()}
    taken = {f: list(spans) for f, spans in rules.items()}
    out: list[Piece] = []
    for whole_line in (False, True):
        for chunk, (field, origin, line) in places:
            if line != whole_line:
                continue
            lead = len(chunk) - len(chunk.lstrip(_SPACES))
            start = origin + lead
            end = start + len(chunk.rstrip(_SPACES)) - lead
            spans = taken.setdefault(field, [])
            # A sentence that holds a rule's match is left to the rule (since model v4), so
            # the seat's own words before the match stay; a line that meets any withheld span.
            if _blocked(rules.get(field, []), start, end, True) or _blocked(
                spans, start, end, whole_line
            ):
                continue
            out.append(Piece(field, start, end, start, end, "learned"))
            if not whole_line:
                insort(spans, (start, end))
    return out


def _blocked(spans: list[tuple[int, int]], start: int, end: int, whole_line: bool) -> bool:
    """Whether a sentence lies inside a withheld span, or a line meets one at all (``spans``
    sorted; the few spans starting just before are looked at, as they rarely nest deeper)."""
    if whole_line:
        index = bisect_left(spans, (end, -1))
        return any(start < b for _, b in spans[max(0, index - 8) : index])
    index = bisect_right(spans, (start, _LAST))
    return any(end <= b for _, b in spans[max(0, index - 8) : index])
