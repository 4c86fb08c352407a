"""What an audit judges: for every scored seat of every run, the run as it is and each perturbation.

Pure: the plan is a list of values; the CLI hands them to the judging runner. Every planned
item has only its one seat scored, and an item id that names the run, the seat and the
perturbation, so the pass store can be resumed item by item.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import NamedTuple

from judge.audit.perturb import BASELINE, judged_alone, perturb
from judge.domain.run import Run


class AuditItem(NamedTuple):
    """One run to judge: a seat's run, unperturbed or under one perturbation."""

    item_id: str
    run_id: str
    seat: str
    perturbation: str
    judged_seat: str
    run: Run


def item_id(seat: str, perturbation: str, run: Run) -> str:
    """``<run id>|<seat>|<perturbation>|<digest>``: the digest of the judged run's transcript,
    so a stored pass is reused only for the very text it judged (a changed text is judged anew)."""
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
