"""Reading a verdict out of a judge's reply.

Rules: the LAST verdict in the reply wins (a model that reconsiders ends with its answer);
the score must lie in the range the rubric offers (0.0-1.0); a reply with no verdict is
unscored with its reason, never turned into a zero. A verdict cut at the reply cap (the
score first, docs/scoring.md) keeps its score, the turns it had listed and the rationale so
far, marked cut.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from judge.core.domain.judging import ParseStatus
from judge.core.integrity import linear
from judge.core.integrity.linear import Pattern

REFUSAL = linear.compile(
    r"\b(i can(?:no|')t|i cannot|i won't|i will not|i'm (?:sorry|unable)|i am (?:sorry|unable)|"
    r"as an ai)\b",
    ignorecase=True,
)
_LOOSE_SCORE = linear.compile(r"[\"']?score[\"']?\s*[:=]\s*(-?\d+(?:\.\d+)?)", ignorecase=True)

_BRACE = linear.compile(r"\{")
#: A verdict cut off at the reply cap: the score, then perhaps the turns (complete or not),
#: then perhaps the rationale so far, up to the end of the reply.
_CUT_VERDICT = linear.compile(
    r'\{\s*"score"\s*:\s*(\d+(?:\.\d+)?)\s*,\s*(?:"(?:t(?:u(?:r(?:n(?:s(?:"\s*(?::\s*'
    r'(?:\[([\d,\s]*)(?:\]\s*(?:,\s*(?:"(?:r[a-z]*(?:"\s*(?::\s*(?:"((?:[^"\\]|\\.)*\\?))?)?)?)?)?)?)?)?)?)?)?)?)?)?)?)?'
    r"\s*$"
)
#: What stands after the rationale of a verdict cut at the cap.
CUT_MARK = " [cut at the reply cap]"


class ParsedReply(NamedTuple):
    status: ParseStatus
    score: float | None
    rationale: str
    cited_turns: list[int]
    reason: str | None


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    decoder = json.JSONDecoder()
    for start in (m.start() for m in _BRACE.finditer(text)):
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            yield value


def turns_in(value: Any, known: set[int]) -> list[int]:
    """The cited turns of a reply's list that the transcript holds, sorted, each once."""
    if not isinstance(value, list):
        return []
    return sorted({t for t in value if isinstance(t, int) and not isinstance(t, bool)} & known)


class Unanswered(NamedTuple):
    """Why a reply holds no answer: its parse status and the reason stored with it."""

    status: ParseStatus
    reason: str


def last_answer(
    text: str, key: str, loose: Pattern, cast: Callable[[str], Any], *, refused: bool, task: str
) -> tuple[Any, dict[str, Any]] | Unanswered:
    """The value of ``key`` in the reply's last JSON object holding it, with that object; else
    the last ``loose`` match, ``cast``, with the reply as rationale; else why neither."""
    if refused:
        return Unanswered("refused", "the provider refused to answer")
    if found := [obj for obj in json_objects(text) if key in obj]:
        return found[-1][key], found[-1]
    if matches := loose.findall(text):
        return cast(matches[-1]), {"rationale": text.strip()}
    if REFUSAL.search(text):
        return Unanswered("refused", f"the judge declined to {task}")
    snippet = text.strip()[:80] or "(empty reply)"
    return Unanswered("unparseable", f"no verdict found in reply: {snippet!r}")


def parse_verdict(text: str, known_turns: set[int], *, refused: bool = False) -> ParsedReply:
    """Parse the last verdict of a reply; cited turns outside ``known_turns`` are dropped, and
    ``refused`` says the provider reported a refusal (e.g. a content filter)."""
    cut = None if refused else cut_verdict(text)
    answer = (
        (cut["score"], cut)
        if cut is not None
        else last_answer(text, "score", _LOOSE_SCORE, float, refused=refused, task="score")
    )
    if isinstance(answer, Unanswered):
        return ParsedReply(answer.status, None, "", [], answer.reason)
    score, obj = answer
    if isinstance(score, bool) or not isinstance(score, int | float):
        return ParsedReply("unparseable", None, "", [], f"score is not a number: {score!r}")
    if not 0.0 <= float(score) <= 1.0:
        return ParsedReply("out_of_range", None, "", [], f"score {score} is outside 0.0-1.0")
    rationale = str(obj.get("rationale", ""))[:1000]
    return ParsedReply("ok", float(score), rationale, turns_in(obj.get("turns"), known_turns), None)


def cut_verdict(text: str) -> dict[str, Any] | None:
    """A verdict the reply cap cut short after its score, as its object would have read: the
    score, the turns listed so far (the last one dropped when it may be incomplete) and the
    rationale so far marked :data:`CUT_MARK`; None when the reply does not end inside a
    score-first verdict whose score is complete (followed by its comma)."""
    found = _CUT_VERDICT.search(text)
    if found is None:
        return None
    try:
        score = float(found.group(1))
    except ValueError:
        return None
    listed = found.group(2)
    turns: list[int] = []
    if listed:
        closed = found.group(0)[found.end(2) - found.start(0) :].lstrip().startswith("]")
        pieces = [p.strip() for p in listed.split(",")]
        if not closed:
            pieces = pieces[:-1]
        turns = [int(p) for p in pieces if p.isdigit()]
    so_far = found.group(3) or ""
    try:
        so_far = json.loads(f'"{so_far}"')
    except json.JSONDecodeError:  # cut inside an escape: the text as written
        pass
    return {"score": score, "turns": turns, "rationale": (so_far.strip() + CUT_MARK).strip()}
