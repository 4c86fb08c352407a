"""Reading a verdict out of a judge's reply.

Rules: the LAST verdict in the reply wins (a model that reconsiders ends with its answer);
the score must lie in the range the rubric offers (0.0-1.0); a reply with no verdict is
unscored with its reason, never turned into a zero.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, NamedTuple

from judge.core.domain.judging import ParseStatus
from judge.core.integrity import linear

REFUSAL = linear.compile(
    r"\b(i can(?:no|')t|i cannot|i won't|i will not|i'm (?:sorry|unable)|i am (?:sorry|unable)|"
    r"as an ai)\b",
    ignorecase=True,
)
_LOOSE_SCORE = linear.compile(r"[\"']?score[\"']?\s*[:=]\s*(-?\d+(?:\.\d+)?)", ignorecase=True)

_BRACE = linear.compile(r"\{")


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


def _last_verdict_object(text: str) -> dict[str, Any] | None:
    found = [obj for obj in json_objects(text) if "score" in obj]
    return found[-1] if found else None


def turns_in(value: Any, known: set[int]) -> list[int]:
    """The cited turns of a reply's list that the transcript holds, sorted, each once."""
    if not isinstance(value, list):
        return []
    return sorted({t for t in value if isinstance(t, int) and not isinstance(t, bool)} & known)


def _scored(score: Any, obj: dict[str, Any], known_turns: set[int]) -> ParsedReply:
    if isinstance(score, bool) or not isinstance(score, int | float):
        return ParsedReply("unparseable", None, "", [], f"score is not a number: {score!r}")
    if not 0.0 <= float(score) <= 1.0:
        return ParsedReply("out_of_range", None, "", [], f"score {score} is outside 0.0-1.0")
    rationale = str(obj.get("rationale", ""))[:1000]
    return ParsedReply("ok", float(score), rationale, turns_in(obj.get("turns"), known_turns), None)


def parse_verdict(text: str, known_turns: set[int], *, refused: bool = False) -> ParsedReply:
    """Parse the last verdict of a reply; cited turns outside ``known_turns`` are dropped, and
    ``refused`` says the provider reported a refusal (e.g. a content filter)."""
    if refused:
        return ParsedReply("refused", None, "", [], "the provider refused to answer")
    obj = _last_verdict_object(text)
    if obj is not None:
        return _scored(obj["score"], obj, known_turns)
    loose = _LOOSE_SCORE.findall(text)
    if loose:
        return _scored(float(loose[-1]), {"rationale": text.strip()}, known_turns)
    if REFUSAL.search(text):
        return ParsedReply("refused", None, "", [], "the judge declined to score")
    snippet = text.strip()[:80] or "(empty reply)"
    return ParsedReply("unparseable", None, "", [], f"no verdict found in reply: {snippet!r}")
