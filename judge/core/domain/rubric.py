"""Rubrics (the measuring instrument) and trait packs."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Literal

from pydantic import Field

from judge.core.domain.outputs import Value

TraitName = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z][a-z0-9_]*$")]


class Rubric(Value):
    """What a trait means and what a 0.0, 0.5 and 1.0 look like."""

    trait: TraitName
    version: int = Field(ge=1)
    definition: str = Field(min_length=20)
    anchor_0: str = Field(min_length=10)
    anchor_5: str = Field(min_length=10)
    anchor_1: str = Field(min_length=10)
    source: Literal["builtin", "custom"] = "builtin"

    @property
    def content_hash(self) -> str:
        """sha256 over the texts that reach the judge; the era identity of this rubric."""
        body = {
            k: getattr(self, k) for k in ("trait", "definition", "anchor_0", "anchor_5", "anchor_1")
        }
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
