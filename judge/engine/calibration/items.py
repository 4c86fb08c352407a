"""Calibration items (a run plus the human labels beside it, never inside it) and score files
(JSON lines of :class:`ScoreRow`, the input of ``judge agreement``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from judge.core.domain.limits import bounded_loads
from judge.core.domain.run import Run
from judge.core.errors import InputError, describe_validation_error
from judge.engine.calibration.manifest import CalibrationSetError


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HumanLabel(_Record):
    """One rater's answer to one labelled question about one seat."""

    seat: str
    label: str
    group: str
    rater: str
    raw: str
    score: float = Field(ge=0.0, le=1.0)


class CalibrationItem(_Record):
    item_id: str
    run: Run
    labels: list[HumanLabel]


class ItemLabels(_Record):
    """The labels file's line for one item (the run itself is written to runs/<run_id>.json)."""

    item_id: str
    run_id: str
    labels: list[HumanLabel]


class ScoreRow(_Record):
    """One rater's verdict on one trait of one seat of one item."""

    item_id: str
    seat: str
    trait: str
    rater: str
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    verdict: str = Field(default="", description="why: a judge rationale or the human votes")
    passes: list[float | None] = Field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.item_id, self.seat, self.trait)


Model = TypeVar("Model", bound=BaseModel)


def read_jsonl(path: Path, model: type[Model]) -> list[Model]:
    """Every line of a JSON-lines file as ``model``; errors name the file and line. Lines end at
    ``\n`` only: a judge's reply may hold U+2028 or U+0085, which JSON leaves unescaped and
    ``str.splitlines`` would cut a record at."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        raise CalibrationSetError(f"{path}: file not found") from None
    return [_parse_line(path, n, line, model) for n, line in enumerate(lines, 1) if line.strip()]


def _parse_line(path: Path, number: int, line: str, model: type[Model]) -> Model:
    try:
        return model.model_validate(bounded_loads(line))
    except json.JSONDecodeError as exc:
        raise CalibrationSetError(f"{path}:{number}: not valid JSON: {exc.msg}") from None
    except InputError as exc:  # nested past the bound: refused before parsing
        raise CalibrationSetError(f"{path}:{number}: {exc}") from None
    except ValidationError as exc:
        raise CalibrationSetError(
            f"{path}:{number}: not a {model.__name__}: {describe_validation_error(exc)}"
        ) from None


def write_jsonl(path: Path, records: Iterable[BaseModel]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(record.model_dump_json() + "\n")
            count += 1
    return count


def write_items(items: Iterable[CalibrationItem], out_dir: Path) -> int:
    """Write ``runs/<run_id>.json`` for each item and one ``labels.jsonl`` beside them."""
    runs = out_dir / "runs"
    runs.mkdir(parents=True, exist_ok=True)

    def labels() -> Iterator[ItemLabels]:
        for item in items:
            (runs / f"{item.run.run_id}.json").write_text(
                item.run.model_dump_json(indent=2), encoding="utf-8"
            )
            yield ItemLabels(item_id=item.item_id, run_id=item.run.run_id, labels=item.labels)

    return write_jsonl(out_dir / "labels.jsonl", labels())
