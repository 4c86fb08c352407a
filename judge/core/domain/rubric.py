"""Rubrics (the measuring instrument) and trait packs."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Literal

import numpy as np
import numpy.typing as npt
from pydantic import Field

from judge.core.domain.outputs import Value

TraitName = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z][a-z0-9_]*$")]


class MapPoint(Value):
    """One knot of a calibration map: a judge score and the owners' mean it stands for."""

    judge: float = Field(ge=0.0, le=1.0)
    owners: float = Field(ge=0.0, le=1.0)


class CalibrationMap(Value):
    """A non-decreasing map from the judge's mean to the owners' mean, linear between its
    knots and flat beyond the first and last (docs/alignment.md, "A calibration map")."""

    points: list[MapPoint] = Field(min_length=1)

    def apply(self, scores: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The mapped scores (NaN stays NaN)."""
        x = np.asarray(scores, dtype=np.float64)
        knots = np.array([p.judge for p in self.points])
        values = np.array([p.owners for p in self.points])
        return np.where(np.isnan(x), np.nan, np.interp(x, knots, values))

    def mapped(self, score: float | None) -> float | None:
        """One score mapped, rounded to 6 places as the knots are (None stays None)."""
        return None if score is None else round(float(self.apply([score])[0]), 6)

    @property
    def content_hash(self) -> str:
        """sha256 over the knots: the map's part of the era identity."""
        body = [[p.judge, p.owners] for p in self.points]
        return hashlib.sha256(json.dumps(body, separators=(",", ":")).encode()).hexdigest()


class Rubric(Value):
    """What a trait means and what a 0.0, 0.5 and 1.0 look like, and the calibration map an
    owner adopted for its scores, if any (never shown to the judge)."""

    trait: TraitName
    version: int = Field(ge=1)
    definition: str = Field(min_length=20)
    anchor_0: str = Field(min_length=10)
    anchor_5: str = Field(min_length=10)
    anchor_1: str = Field(min_length=10)
    source: Literal["builtin", "custom"] = "builtin"
    calibration_map: CalibrationMap | None = Field(
        default=None,
        description="the adopted map from the judge's mean to the trait score "
        "(docs/alignment.md); None: the trait score is the judge's mean",
    )

    @property
    def content_hash(self) -> str:
        """sha256 over the texts that reach the judge and the hash of the calibration map where
        there is one; the era identity of this rubric (a rubric without a map keeps the hash it
        always had)."""
        body = {
            k: getattr(self, k) for k in ("trait", "definition", "anchor_0", "anchor_5", "anchor_1")
        }
        if self.calibration_map is not None:
            body["calibration_map"] = self.calibration_map.content_hash
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()


#: Where a pack's traits are reported on a scorecard: among the capability traits, or in the
#: safety block (which an agent never sees).
PackKind = Literal["capability", "safety"]


class TraitPack(Value):
    """A named group of traits, declared in ``traits/<name>.yaml`` (docs/architecture.md,
    "Add a trait pack"); ``in_composite``: whether its means make up the composite."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    kind: PackKind
    in_composite: bool
    description: str = Field(min_length=1)
    traits: list[TraitName] = Field(min_length=1)
