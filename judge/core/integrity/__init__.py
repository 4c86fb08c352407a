"""The detector of judge-directed text in a seat's own events (docs/integrity.md): pure and
deterministic, the same transcript always gives the same findings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.integrity import SeatTamper
from judge.core.domain.run import Run, TranscriptEvent
from judge.core.integrity.budget import bounded
from judge.core.integrity.channels import (
    JudgedView,
    agent_fields,
    judged_view,
    labels_for,
    scenario_roles,
    screen,
    seat_labels,
    unscannable,
)
from judge.core.integrity.withhold import withhold
from judge.core.versions import DETECTOR_VERSION

__all__ = [
    "DETECTOR_VERSION",
    "JudgedView",
    "agent_fields",
    "bounded",
    "judged_transcript",
    "judged_view",
    "labels_for",
    "scan_run",
    "scan_seat",
    "scenario_roles",
    "seat_labels",
    "tamper_findings",
    "unscannable",
    "unscannable_seats",
    "withhold",
]


def scan_seat(
    transcript: Sequence[TranscriptEvent], seat: str, *, agent_submitted: bool = False
) -> SeatTamper:
    """What the seat wrote or caused that is addressed to whoever scores it
    (:func:`judge.core.integrity.channels.screen`): one finding per merged withheld span (at
    most ``scan.MAX_FINDINGS``) and every span to withhold in its events."""
    return screen(transcript, [seat], agent_submitted=agent_submitted)[seat]


def scan_run(run: Run, *, agent_submitted: bool = False) -> dict[str, SeatTamper]:
    """The detector's answer for every scored seat of the run."""
    return screen(run.transcript, run.scored_seats, agent_submitted=agent_submitted)


def tamper_findings(
    run: Run, settings: MeasurementSettings, *, agent_submitted: bool = False
) -> dict[str, SeatTamper]:
    """What the detector finds in the events of every seat that acts in the run (none with
    the defence off); one scoring run scans once (``judge.engine.pipeline.score_run_async``).
    ``agent_submitted``: an agent submitted the run itself, so every event and seat name is
    its text."""
    if not settings.defence:
        return {}
    seats = dict.fromkeys(e.seat for e in run.transcript)
    return screen(run.transcript, seats, agent_submitted=agent_submitted)


def unscannable_seats(run: Run) -> dict[str, SeatTamper]:
    """Every scored or acting seat flagged as unscannable, with no finding: the run is held
    for an owner and none of it is judged."""
    found = SeatTamper(flagged=True, detector_version=DETECTOR_VERSION, unscannable=True)
    return dict.fromkeys([*run.scored_seats, *(e.seat for e in run.transcript)], found)


def judged_transcript(run: Run, tamper: Mapping[str, SeatTamper]) -> list[TranscriptEvent]:
    """The transcript as the judge reads it (:func:`judged_view`): every seat's withheld spans
    replaced; ScanBudgetExceeded for an unscannable run, which the judge never reads."""
    return judged_view(run, tamper).transcript
