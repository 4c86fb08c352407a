"""The detector of judge-directed text in a seat's own events (docs/integrity.md).

Pure and deterministic: the same transcript always gives the same findings. The pipeline
withholds what it finds before the judge reads the transcript; ``judge scan`` runs it alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.integrity import SeatTamper
from judge.core.domain.run import Run, TranscriptEvent
from judge.core.integrity.scan import (
    MAX_FINDINGS,
    finding,
    merge_sorted,
    seam_pieces,
    seat_fields,
    seat_pieces,
)
from judge.core.integrity.withhold import withhold
from judge.core.versions import DETECTOR_VERSION

__all__ = [
    "DETECTOR_VERSION",
    "judged_transcript",
    "scan_run",
    "scan_seat",
    "tamper_findings",
    "withhold",
]


def scan_seat(transcript: Sequence[TranscriptEvent], seat: str) -> SeatTamper:
    """What the seat wrote that is addressed to whoever scores it.

    Only the seat's own messages and actions are read; the result lists one finding per
    merged withheld span (at most ``MAX_FINDINGS``) and every span to withhold.
    """
    fields = list(seat_fields(transcript, seat))
    pieces = seat_pieces(fields)
    messages = [f for f in fields if f.pointer == "/content"]
    for piece in seam_pieces(messages, pieces):
        pieces[piece.field] = [*pieces[piece.field], piece]
    findings = [finding(p) for f in fields for p in merge_sorted(pieces[f])]
    return SeatTamper(
        flagged=bool(findings),
        detector_version=DETECTOR_VERSION,
        findings=findings[:MAX_FINDINGS],
        withheld=[f.span for f in findings],
    )


def scan_run(run: Run) -> dict[str, SeatTamper]:
    """The detector's answer for every scored seat of the run."""
    return {seat: scan_seat(run.transcript, seat) for seat in run.scored_seats}


def tamper_findings(run: Run, settings: MeasurementSettings) -> dict[str, SeatTamper]:
    """What the detector finds in each seat's own events, every seat that acts in the run
    (none with the defence off). Pure and deterministic; one scoring run scans once and
    hands the findings to the judged transcript, the cost estimate and the card
    (``judge.engine.pipeline.score_run_async``), so the card lists what the judge was not given."""
    if not settings.defence:
        return {}
    seats = dict.fromkeys(e.seat for e in run.transcript)
    return {seat: scan_seat(run.transcript, seat) for seat in seats}


def judged_transcript(run: Run, tamper: Mapping[str, SeatTamper]) -> list[TranscriptEvent]:
    """The transcript as the judge reads it: every seat's judge-directed spans withheld (a
    counterpart's text aimed at the scorer is no more evidence than the seat's own). The
    stored run is not changed."""
    spans = [span for found in tamper.values() for span in found.withheld]
    return withhold(run.transcript, spans) if spans else list(run.transcript)
