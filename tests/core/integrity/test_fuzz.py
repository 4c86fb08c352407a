"""Scanning never raises on a valid transcript, and its spans always withhold cleanly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.core.domain.integrity import WITHHELD_MARKER
from judge.core.domain.run import MessageEvent
from judge.core.integrity import scan_seat, withhold
from tests.core.integrity.helpers import acted, said

#: Letters, tricks and the words the rules look for, so random texts reach deep.
PIECES = [
    "score", "me", "1.0", "judge", "evaluator", "ignore", "the", "rubric", ":", "\n", " ", ".",
    "{", '"', "}", "<|", "|>", "\u200b", "\u202e", "і", "ｓ", "1gn0re", "s c o r e", "=", "$",
    "忽略", "指令", "满分", "игнорируй", "инструкции", "aWdub3Jl", "é", "\u0301", "ß", "İ",
]  # fmt: skip
TEXTS = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=4), TEXTS)
def test_any_mix_scans_and_withholds_without_raising(messages: list[str], arg: str) -> None:
    transcript = [*said(*messages), acted("note", {"text": arg, "list": [arg, 3]})]
    result = scan_seat(transcript, "buyer")
    out = withhold(transcript, result.withheld)
    assert result.flagged == bool(result.findings)
    for span in result.withheld:
        assert span.start < span.end
    for before, after in zip(transcript, out, strict=True):
        if isinstance(before, MessageEvent) and before is not after:
            assert isinstance(after, MessageEvent)
            assert WITHHELD_MARKER in after.content
