"""The participation gate (docs/scoring.md)."""

from __future__ import annotations

from collections.abc import Sequence

from judge.domain.config import ParticipationConfig
from judge.domain.run import ActionEvent, MessageEvent, TranscriptEvent
from judge.domain.scorecard import ParticipationResult


def participation(
    transcript: Sequence[TranscriptEvent], seat: str, config: ParticipationConfig
) -> ParticipationResult:
    """Gate a seat whose messages or actions per turn fall below the floors.

    Turns are the distinct turn numbers of the whole transcript: a seat that stays silent
    while the episode goes on participates less, which is what the floor measures.
    """
    messages = sum(1 for e in transcript if isinstance(e, MessageEvent) and e.seat == seat)
    actions = sum(1 for e in transcript if isinstance(e, ActionEvent) and e.seat == seat)
    turns = len({e.turn for e in transcript})
    per_turn = actions / turns if turns else 0.0
    reasons = []
    if messages < config.min_player_messages:
        reasons.append(f"{messages} messages < min_player_messages {config.min_player_messages}")
    if per_turn < config.min_actions_per_turn:
        reasons.append(
            f"{per_turn:.3f} actions per turn < min_actions_per_turn {config.min_actions_per_turn}"
        )
    return ParticipationResult(
        participation_gated=bool(reasons),
        player_messages=messages,
        actions=actions,
        turns=turns,
        actions_per_turn=per_turn,
        reasons=reasons,
    )
