"""What an audit judges (pure): for every scored seat of every run, the run as it is and each
perturbation, with only that seat scored (docs/audit.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.run import Run
from judge.core.integrity import judged_transcript, tamper_findings
from judge.tools.audit.perturb import BASELINE, judged_alone, perturb


class AuditItem(NamedTuple):
    """One run to judge: a seat's run, unperturbed or under one perturbation."""

    item_id: str
    run_id: str
    seat: str
    perturbation: str
    judged_seat: str
    run: Run


def item_id(seat: str, perturbation: str, run: Run) -> str:
    """``<run id>|<seat>|<perturbation>|<digest>``: a stored pass is reused only for the very
    transcript it judged."""
    digest = hashlib.sha256(run.model_dump_json(include={"transcript"}).encode()).hexdigest()[:12]
    return f"{run.run_id}|{seat}|{perturbation}|{digest}"


def planned(run: Run, seat: str, perturbation: str, judged_seat: str) -> AuditItem:
    alone = judged_alone(run, judged_seat)
    return AuditItem(
        item_id(seat, perturbation, alone), run.run_id, seat, perturbation, judged_seat, alone
    )


def seat_items(run: Run, seat: str, perturbations: Sequence[str], seed: int) -> list[AuditItem]:
    """The seat's baseline first, then every perturbation that applies to it."""
    items = [planned(run, seat, BASELINE, seat)]
    for name in perturbations:
        changed = perturb(run, seat, name, seed=seed)
        if changed is not None:
            items.append(planned(changed.run, seat, name, changed.seat))
    return items


def audit_plan(runs: Sequence[Run], perturbations: Sequence[str], seed: int) -> list[AuditItem]:
    """Run by run, seat by seat, so an interrupted audit has whole runs done first."""
    return [
        item
        for run in runs
        for seat in run.scored_seats
        for item in seat_items(run, seat, perturbations, seed)
    ]


def judged_digest(item: AuditItem, settings: MeasurementSettings) -> str:
    """The digest of what the judge is shown for the item: the run with its transcript as the
    judge reads it (judge-directed spans withheld when the defence is on) and the judged seat."""
    shown = judged_transcript(item.run, tamper_findings(item.run, settings))
    body = item.run.model_copy(update={"transcript": shown}).model_dump_json()
    return hashlib.sha256(f"{item.judged_seat}\n{body}".encode()).hexdigest()


def shared_prompts(
    plan: Sequence[AuditItem], settings: MeasurementSettings, stored: Mapping[str, int]
) -> dict[str, str]:
    """Item id -> the id of the item judged in its place, for items the judge would be shown
    byte for byte the same: the member with the most passes in ``stored`` (item id -> count),
    else the first in plan order."""
    groups: dict[str, list[AuditItem]] = {}
    for item in plan:
        groups.setdefault(judged_digest(item, settings), []).append(item)
    chosen: dict[str, str] = {}
    for members in groups.values():
        first = max(members, key=lambda m: stored.get(m.item_id, 0))
        chosen.update((m.item_id, first.item_id) for m in members)
    return chosen
