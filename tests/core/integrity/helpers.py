"""Building transcripts for the detector's tests."""

from __future__ import annotations

from typing import Any

from judge.core.domain.run import ActionEvent, MessageEvent, TranscriptEvent


def said(*texts: str, seat: str = "buyer", turn: int = 1) -> list[TranscriptEvent]:
    """One message of ``seat`` per text, on consecutive turns."""
    return [
        MessageEvent(kind="message", turn=turn + i, seat=seat, content=text)
        for i, text in enumerate(texts)
    ]


def acted(name: str, args: dict[str, Any], seat: str = "buyer", turn: int = 1) -> ActionEvent:
    return ActionEvent(kind="action", turn=turn, seat=seat, name=name, args=args)
