"""Every written attack is found, in every family and language; no ordinary talk is."""

from __future__ import annotations

import pytest

from judge.core.integrity import scan_seat, withhold
from tests.core.integrity.corpus import TRICK_KINDS, Positive, negatives, positives
from tests.core.integrity.helpers import said

POSITIVES = positives()
NEGATIVES = negatives()


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert len(POSITIVES) >= 40 and len(NEGATIVES) >= 40
    families = {p.family for p in POSITIVES}
    languages = {"french", "spanish", "german", "portuguese", "russian", "chinese", "japanese"}
    assert languages <= families
    assert set(TRICK_KINDS) <= families


@pytest.mark.parametrize("attack", POSITIVES, ids=lambda p: f"{p.family}:{p.messages[0][:30]}")
def test_each_attack_is_flagged(attack: Positive) -> None:
    result = scan_seat(said(*attack.messages), "buyer")
    assert result.flagged, attack.messages
    if attack.family in TRICK_KINDS:
        assert TRICK_KINDS[attack.family] in {f.kind for f in result.findings}


@pytest.mark.parametrize("attack", POSITIVES, ids=lambda p: f"{p.family}:{p.messages[0][:30]}")
def test_each_attack_once_withheld_scans_clean(attack: Positive) -> None:
    transcript = said(*attack.messages)
    withheld = withhold(transcript, scan_seat(transcript, "buyer").withheld)
    assert scan_seat(withheld, "buyer").findings == []


@pytest.mark.parametrize("text", NEGATIVES)
def test_ordinary_talk_is_not_flagged(text: str) -> None:
    result = scan_seat(said(text), "buyer")
    assert result.findings == [], [f.excerpt for f in result.findings]
