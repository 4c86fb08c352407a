"""What every mapping of foreign records into runs shares: safe identifiers, the imported-run
record with its notes, and score values read as win conditions (docs/integrations.md)."""

from __future__ import annotations

import hashlib
import math
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from judge.core.domain.run import Run
from judge.core.integrity import linear

_UNSAFE = linear.compile(r"[^A-Za-z0-9._-]+")
MAX_ID = 128


def safe_id(*parts: object, fallback: str = "x") -> str:
    """An identifier valid as a run, scenario, seat or condition id: other characters become
    ``-``; an over-long id keeps its start plus a hash of the whole, so long names stay distinct."""
    text = _UNSAFE.sub("-", "-".join(str(p) for p in parts if p is not None and str(p) != ""))
    text = text.strip("-._") or fallback
    if len(text) > MAX_ID:
        digest = hashlib.sha256(text.encode()).hexdigest()[:10]
        text = f"{text[: MAX_ID - 11]}-{digest}"
    return text


class ImportNotes(BaseModel):
    """What an importer could not map into the run, kept beside it (``RUN_ID.import.json``;
    docs/integrations.md): the record's identity, unmapped values, and what was skipped and why."""

    model_config = ConfigDict(extra="forbid")

    source: str
    origin: dict[str, Any] = Field(default_factory=dict)
    unmapped: dict[str, Any] = Field(default_factory=dict)
    skipped: list[str] = Field(default_factory=list)


class ImportedRun(NamedTuple):
    run: Run
    notes: ImportNotes


#: Inspect's letter grades as (met, progress): correct, incorrect, partial, no answer.
LETTER_GRADES: dict[str, tuple[bool, float | None]] = {
    "C": (True, None), "I": (False, 0.0), "P": (False, 0.5), "N": (False, 0.0),
}  # fmt: skip
_WORDS: dict[str, tuple[bool, float | None]] = {
    "yes": (True, None), "true": (True, None), "no": (False, 0.0), "false": (False, 0.0),
}  # fmt: skip


class Mapped(NamedTuple):
    """A score value as a win condition's (met, progress), or why it cannot be one."""

    met: bool | None
    progress: float | None = None
    reason: str | None = None


def map_score_value(value: Any) -> Mapped:
    """One score value (Inspect score, OTel evaluation result) as (met, progress), by the
    table in docs/integrations.md, "Scores to win conditions"."""
    if isinstance(value, bool):
        return Mapped(value, None if value else 0.0)
    if isinstance(value, int | float):
        number = float(value)
        if not math.isfinite(number) or not 0.0 <= number <= 1.0:
            return Mapped(None, reason=f"value {value!r} is not a number in [0, 1]")
        return Mapped(True) if number == 1.0 else Mapped(False, number)
    if isinstance(value, str):
        grade = LETTER_GRADES.get(value.strip()) or _WORDS.get(value.strip().lower())
        if grade is None:
            return Mapped(None, reason=f"value {value!r} is not a grade (C, I, P, N, yes, no)")
        return Mapped(*grade)
    return Mapped(None, reason=f"a {type(value).__name__} value has no met/progress reading")
