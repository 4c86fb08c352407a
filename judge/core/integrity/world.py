"""Ordinary text of the scenario's own world that the rules and the learned layer would
otherwise flag (docs/integrity.md, "What is not flagged"):

* tool output of a platform run (an observation, an action's result) that carries the
  world's own ratings, scores, statuses and system fields ({"rating": 4.6, "score": 88},
  "System: order confirmed", "final score: 92" of a car report): a verdict-, threat-, role-
  or learned-kind match there is kept only when the same string also addresses whoever
  scores the run (a directed rule's match in it, or a word of the scorer's or the run's own
  vocabulary in the matched text, a verdict's own keys among them, a scored party or "every
  trait" in any language of ``declared``, or the top of a scale:
  ``{"verdict": true}`` and "Final score: 1.0" in a result are held, ``{"rating": 4.6}`` is
  not). Text an agent wrote into a run it submitted
  itself is never excused, nor anything in the seat's own messages and arguments;
* markup: a learned-kind sentence that holds HTML tags is scored again with the tags read as
  spaces (a comment's words are kept), and kept only if it is still over the threshold.
"""

from __future__ import annotations

from judge.core.domain.integrity import TamperKind
from judge.core.integrity import declared, learned, linear
from judge.core.integrity.fold import fold
from judge.core.integrity.scan import Piece, TextField

#: Kinds a world's data is mistaken for: a verdict's words, a report's words, a system's
#: name, a rating the learned layer reads as a request.
WORLD_KINDS: frozenset[TamperKind] = frozenset(
    {"forged_verdict", "threat", "role_spoof", "obfuscated", "learned"}
)
#: Kinds that address the scorer: a field holding one is never excused.
DIRECTED_KINDS: frozenset[TamperKind] = frozenset(
    {"instruction", "appeal", "bribe", "encoded", "split"}
)
#: Words of the scorer's or the run's own vocabulary (over folded text): data that holds one
#: speaks to whoever scores the run, not about the world.
_DIRECTED = linear.compile(
    r"\b(?:evaluat\w*|(?:the|to|dear|any|our|your) graders?|grading|scorer|scorers|assessor|"
    r"rater|raters|the judge|(?:ai|llm|judge|grading|scoring|reward) model|language model|rubric|"
    r"instructions?|prompt|transcript|conversation|dialogue|negotiation|seat|participant|"
    r"agent|assistant|llm|ignore|disregard|override|must|should|please|performance|"
    r"verdicts?|final_score|overall_score|rationale|reasoning|justification|"
    r"deserv\w*|award\w*|winner|(?:for|to) (?:the )?(?:buyer|seller|me|us|this (?:seat|side|"
    r"party)))\b"
)
#: A top value (over folded text): world data rates a tent 4.6 or a car 92, a verdict planted in
#: tool output gives the top of a scale ("Final score: 1.0", "a perfect score").
_TOP = linear.compile(
    r"\b(?:1\.0+|100\s*%|perfect|flawless|full marks|maximum|"
    r"top (?:score|mark|rating|grade)s?)|\b(?:score|rating|grade|mark)s?\s*[:=]\s*(?:1|10|100)\b"
)
#: An HTML tag or a comment's markers (a comment's words are kept).
_TAG = linear.compile(r"<!--|-->|</?[a-z][a-z0-9]*(?:\s[^<>\n]{0,200})?/?>")


def is_tool_output(field: TextField) -> bool:
    """Whether the field is what a tool gave back: an observation or an action's result."""
    return field.kind == "observation" or (
        field.kind == "action" and field.pointer.startswith("/result")
    )


def ordinary(pieces: dict[TextField, list[Piece]], *, agent_submitted: bool) -> None:
    """Drop from ``pieces`` (a seat's, by field) the matches this module's docstring excuses."""
    for field, found in pieces.items():
        if not found:
            continue
        kept = found
        if not agent_submitted and is_tool_output(field):
            kept = _world_data(field, kept)
        if any(p.kind == "learned" for p in kept) and _TAG.found(field.text.lower()):
            kept = [p for p in kept if p.kind != "learned" or _still_learned(field, p)]
        if len(kept) != len(found):
            pieces[field] = kept


def _world_data(field: TextField, found: list[Piece]) -> list[Piece]:
    if any(p.kind in DIRECTED_KINDS for p in found):
        return found
    return [
        p
        for p in found
        if p.kind not in WORLD_KINDS or _addresses_scorer(fold(field.text[p.start : p.end]).text)
    ]


def _addresses_scorer(text: str) -> bool:
    return _DIRECTED.found(text) or _TOP.found(text) or declared.names_scored_party(text)


def _still_learned(field: TextField, piece: Piece) -> bool:
    """Whether the learned piece is over the threshold with its tags read as spaces."""
    model = learned.model()
    if model is None:
        return True
    text = field.text[piece.start : piece.end]
    bare = _TAG.sub(" ", text.lower())
    if bare == text.lower():
        return True
    texts = [t for t in learned.variants(bare) if len(t) >= learned.MIN_CHARS]
    if not texts:
        return False
    return bool(model.over_threshold(texts).any())
