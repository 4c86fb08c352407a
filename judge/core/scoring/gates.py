"""The participation gate (docs/scoring.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from judge.core.domain.config import ParticipationConfig
from judge.core.domain.run import ActionEvent, MessageEvent, TranscriptEvent
from judge.core.domain.scorecard import ParticipationResult


class _Activity(NamedTuple):
    """How much one seat did: its messages and actions, over the transcript's turns."""

    player_messages: int
    actions: int
    turns: int
    actions_per_turn: float


def _activity(transcript: Sequence[TranscriptEvent], seat: str) -> _Activity:
    """The seat's messages and actions, and its actions per turn of the whole transcript."""
    messages = sum(1 for e in transcript if isinstance(e, MessageEvent) and e.seat == seat)
    actions = sum(1 for e in transcript if isinstance(e, ActionEvent) and e.seat == seat)
    turns = len({e.turn for e in transcript})
    return _Activity(messages, actions, turns, actions / turns if turns else 0.0)


def _shortfalls(done: _Activity, config: ParticipationConfig) -> list[str]:
    """Each floor the seat fell below, with the figure that fell short."""
    reasons = []
    if done.player_messages < config.min_player_messages:
        reasons.append(
            f"{done.player_messages} messages < min_player_messages {config.min_player_messages}"
        )
    if done.actions_per_turn < config.min_actions_per_turn:
        reasons.append(
            f"{done.actions_per_turn:.3f} actions per turn < min_actions_per_turn "
            f"{config.min_actions_per_turn}"
        )
    return reasons


def participation(
    transcript: Sequence[TranscriptEvent], seat: str, config: ParticipationConfig
) -> ParticipationResult:
    """Gate a seat whose messages or actions per turn fall below the floors; turns are those
    of the whole transcript, so a seat silent while the episode goes on participates less,
    which is what the floor measures."""
    done = _activity(transcript, seat)
    reasons = _shortfalls(done, config)
    return ParticipationResult(participation_gated=bool(reasons), **done._asdict(), reasons=reasons)
