"""Score integrity: text in a seat's own events addressed to whoever scores it (docs/integrity.md).
The pipeline replaces each :class:`WithheldSpan` with :data:`WITHHELD_MARKER` before the judge
reads the transcript; the stored run is never changed."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from judge.core.domain.outputs import Value

#: What a finding is. The first six say what the text tries to do; ``encoded``,
#: ``obfuscated`` and ``split`` say it was found only after decoding a blob, undoing letter
#: tricks (zero-width or bidi characters, confusable letters, spacing, leetspeak) or joining
#: the seat's consecutive messages; ``learned`` that no rule matched and the learned layer's
#: classifier scored the sentence over its threshold; ``judge_screen`` that the judge itself,
#: asked whether the seat's text addresses whoever scores it, said it does (or gave no
#: readable answer).
TamperKind = Literal[
    "instruction",
    "appeal",
    "forged_verdict",
    "role_spoof",
    "threat",
    "bribe",
    "encoded",
    "obfuscated",
    "split",
    "learned",
    "judge_screen",
]

#: What the judge's own screen answered for a seat (``unreadable``: no answer could be read,
#: which holds the seat like ``directed``).
ScreenVerdict = Literal["directed", "not_directed", "unreadable"]

#: What the judge reads in place of each withheld span; fixed, so prompts stay cacheable.
WITHHELD_MARKER = "[text addressed to the evaluator withheld by the platform]"

#: The longest excerpt a finding keeps (owners read it; agents never see it).
EXCERPT_MAX_CHARS = 120


class WithheldSpan(Value):
    """A half-open character range ``[start, end)`` of one text field of one event.

    ``field`` is a JSON pointer into the event: ``/content`` for the text of a message (or
    of an observation, ``done``, system or fault event), ``/name`` for an action's name,
    ``/args/<key>/...`` or ``/result/...`` for a scalar inside an action's arguments or
    result, a number or boolean read as its JSON rendering (RFC 6901 escaping: ``~0`` for
    ``~``, ``~1`` for ``/``); a pointer ending ``~k`` names the object key of the member it
    addresses, one ending ``~m`` the member whole (key and number or boolean value, read as
    ``"key": value``), and ``/seat`` the seat's name (never
    shown to a judge, which reads platform labels; docs/integrity.md, "Channels").
    """

    event_index: int = Field(ge=0, description="position of the event in the transcript")
    turn: int = Field(ge=0)
    field: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class TamperFinding(Value):
    """One piece of judge-directed text."""

    turn: int = Field(ge=0)
    event_index: int = Field(ge=0)
    kind: TamperKind
    excerpt: str = Field(max_length=EXCERPT_MAX_CHARS)
    span: WithheldSpan


class JudgeScreen(Value):
    """The judge's own screen of one seat (docs/integrity.md, "The judge's own screen"): its
    answer and what its one call cost (counted in the run's cost and budgets)."""

    verdict: ScreenVerdict
    model: str
    prompt_version: int = Field(ge=1)
    prompt_tokens: int | None = Field(default=None, ge=0)
    cached_prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)
    cost_usd: float | None = Field(default=None, ge=0.0)
    attempts: int = Field(default=1, ge=1)
    latency_ms: float = Field(default=0.0, ge=0.0)


class SeatTamper(Value):
    """The detector's answer for one scored seat (owner view)."""

    flagged: bool
    detector_version: str
    findings: list[TamperFinding] = Field(default_factory=list)
    withheld: list[WithheldSpan] = Field(
        default_factory=list,
        description="what the judge did not read: merged, non-overlapping spans in event order",
    )
    unscannable: bool = Field(
        default=False,
        description="the scan of the run passed its CPU-time budget: nothing was judged, the "
        "run is held for an owner (docs/integrity.md)",
    )
    judge_screen: JudgeScreen | None = Field(
        default=None,
        description="the judge's own screen of the seat, when the setting is on "
        "(docs/integrity.md); its finding, if any, is among ``findings``",
    )
