"""The detector of judge-directed text in a seat's own events (docs/integrity.md): pure and
deterministic, the same transcript always gives the same findings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.integrity import SeatTamper
from judge.core.domain.run import Run, TranscriptEvent
from judge.core.errors import ScanBudgetExceeded
from judge.core.integrity import learned, scan
from judge.core.integrity.budget import bounded
from judge.core.integrity.withhold import withhold
from judge.core.versions import DETECTOR_VERSION

__all__ = [
    "DETECTOR_VERSION",
    "bounded",
    "judged_transcript",
    "scan_run",
    "scan_seat",
    "tamper_findings",
    "unscannable",
    "unscannable_seats",
    "withhold",
]


def scan_seat(transcript: Sequence[TranscriptEvent], seat: str) -> SeatTamper:
    """What the seat wrote that is addressed to whoever scores it: one finding per merged
    withheld span (at most ``scan.MAX_FINDINGS``) and every span to withhold."""
    return _scan_seats(transcript, [seat])[seat]


def _scan_seats(
    transcript: Sequence[TranscriptEvent], seats: Sequence[str]
) -> dict[str, SeatTamper]:
    """:func:`scan_seat` of each seat, the rules seat by seat, the learned layer over all of
    them in one batch."""
    ruled = [_rule_pieces(transcript, seat) for seat in seats]
    learned_found = learned.learned_pieces_of_seats(ruled)  # the second layer (docs/integrity.md)
    out: dict[str, SeatTamper] = {}
    for seat, (fields, pieces), extra in zip(seats, ruled, learned_found, strict=True):
        for piece in extra:
            pieces[piece.field] = [*pieces[piece.field], piece]
        findings = [scan.finding(p) for f in fields for p in scan.merge_sorted(pieces[f])]
        out[seat] = SeatTamper(
            flagged=bool(findings),
            detector_version=DETECTOR_VERSION,
            findings=findings[: scan.MAX_FINDINGS],
            withheld=[f.span for f in findings],
        )
    return out


def _rule_pieces(
    transcript: Sequence[TranscriptEvent], seat: str
) -> tuple[list[scan.TextField], dict[scan.TextField, list[scan.Piece]]]:
    """The seat's strings and the rules' pieces in each (seams included)."""
    fields = list(scan.seat_fields(transcript, seat))
    pieces = scan.seat_pieces(fields)
    messages = [f for f in fields if f.pointer == "/content"]
    for piece in scan.seam_pieces(messages, pieces):
        pieces[piece.field] = [*pieces[piece.field], piece]
    return fields, pieces


def scan_run(run: Run) -> dict[str, SeatTamper]:
    """The detector's answer for every scored seat of the run."""
    return _scan_seats(run.transcript, list(dict.fromkeys(run.scored_seats)))


def tamper_findings(run: Run, settings: MeasurementSettings) -> dict[str, SeatTamper]:
    """What the detector finds in the events of every seat that acts in the run (none with
    the defence off); one scoring run scans once (``judge.engine.pipeline.score_run_async``)."""
    if not settings.defence:
        return {}
    return _scan_seats(run.transcript, list(dict.fromkeys(e.seat for e in run.transcript)))


def unscannable_seats(run: Run) -> dict[str, SeatTamper]:
    """Every scored or acting seat flagged as unscannable, with no finding: the run is held
    for an owner and none of it is judged."""
    seats = dict.fromkeys([*run.scored_seats, *(e.seat for e in run.transcript)])
    found = SeatTamper(flagged=True, detector_version=DETECTOR_VERSION, unscannable=True)
    return dict.fromkeys(seats, found)


def unscannable(tamper: Mapping[str, SeatTamper]) -> bool:
    """Whether the scan of the run these findings belong to ran out of its budget."""
    return any(found.unscannable for found in tamper.values())


def judged_transcript(run: Run, tamper: Mapping[str, SeatTamper]) -> list[TranscriptEvent]:
    """The transcript as the judge reads it: every seat's judge-directed spans withheld;
    ScanBudgetExceeded for an unscannable run, which the judge never reads."""
    if unscannable(tamper):
        raise ScanBudgetExceeded(f"run {run.run_id} is unscannable: it is not judged")
    spans = [span for found in tamper.values() for span in found.withheld]
    return withhold(run.transcript, spans) if spans else list(run.transcript)
