"""The owners' agreement, computed once per state of what it reads, kept under a digest of
its inputs (docs/calibration.md, "Agreement, live"). No I/O."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict, Unpack

from cachetools import LRUCache

from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.owners import LiveAgreement, era_agreement, passes_width
from judge.engine.calibration.report import JudgedPasses

#: Results kept at most: a few per (era, trait) — live, one plot's, drift against each
#: neighbour — for far more eras and traits than a store holds at once.
CACHE_SIZE = 256


class AgreementOptions(TypedDict):
    """The keyword arguments of :func:`era_agreement`."""

    trait: str
    era_id: str
    judge_model: str
    weights: NotRequired[Mapping[tuple[str, str], float] | None]


def agreement_key(
    items: Sequence[CalibrationItem], passes: JudgedPasses, **options: Unpack[AgreementOptions]
) -> str:
    """A digest of every input :func:`era_agreement` reads for this trait (in item order,
    which the bootstrap's resampling depends on)."""
    trait, weights = options["trait"], options.get("weights")
    described = {
        "trait": trait,
        "era": options["era_id"],
        "judge": options["judge_model"],
        "width": passes_width(passes),
        "weights": None if weights is None else sorted((*k, w) for k, w in weights.items()),
        "items": [_item_inputs(item, passes, trait) for item in items],
    }
    text = json.dumps(described, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _item_inputs(item: CalibrationItem, passes: JudgedPasses, trait: str) -> object:
    seats = item.run.scored_seats
    return {
        "id": item.item_id,
        "seats": seats,
        "conditions": [c.model_dump(mode="json") for c in item.run.win_conditions],
        "labels": [lab.model_dump(mode="json") for lab in item.labels if lab.label == trait],
        "passes": [
            [(p.index, p.score) for p in passes.get((item.item_id, seat, trait), [])]
            for seat in seats
        ],
    }


class AgreementCache:
    """The last agreements computed, by :func:`agreement_key`; thread-safe (two threads
    missing at once may both compute, never mix)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.computed = 0  # how many times a miss ran the computation
        self._kept: LRUCache[str, LiveAgreement] = LRUCache(size)
        self._lock = threading.Lock()

    def agreement(
        self,
        items: Sequence[CalibrationItem],
        passes: JudgedPasses,
        **options: Unpack[AgreementOptions],
    ) -> LiveAgreement:
        """:func:`era_agreement` of these inputs, kept; each caller gets its own copy."""
        key = agreement_key(items, passes, **options)
        with self._lock:
            found = self._kept.get(key)
        if found is None:
            found = era_agreement(items, passes, **options)
            self.computed += 1
            with self._lock:
                self._kept[key] = found
        return found.model_copy(deep=True)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


#: The process's cache, shared by the API routes, the console and ``/metrics``.
AGREEMENTS = AgreementCache()
