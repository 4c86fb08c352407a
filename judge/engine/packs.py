"""Loading the declarative data: rubrics, trait packs (validated on load, content-hashed)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from judge.core.domain.rubric import PackKind, Rubric, TraitPack
from judge.core.errors import RubricError, describe_validation_error
from judge.engine.settings import process_settings


def data_dir() -> Path:
    """Where rubrics/, traits/ and calibration_sets/ live: ``JUDGE_DATA_DIR``, the source
    checkout, or the copy packed into the wheel."""
    if (configured := process_settings().data_dir) is not None:
        return configured
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "rubrics").is_dir():
        return checkout
    return Path(__file__).resolve().parent / "_data"


def read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RubricError(f"{path}: file not found") from None
    except yaml.YAMLError as exc:
        raise RubricError(f"{path}: not valid YAML: {exc}") from None


Data = TypeVar("Data", Rubric, TraitPack)


def _load(model: type[Data], path: Path) -> Data:
    try:
        return model.model_validate(read_yaml(path))
    except ValidationError as exc:
        raise RubricError(f"{path}: {describe_validation_error(exc)}") from None


def load_rubric(path: Path) -> Rubric:
    rubric = _load(Rubric, path)
    if rubric.trait != path.stem:
        raise RubricError(f"{path}: trait {rubric.trait!r} does not match the file name")
    return rubric


class RubricSet(BaseModel):
    """The active rubrics, each trait's pack kind, and the traits the composite counts."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rubrics: dict[str, Rubric]
    packs: dict[str, PackKind]
    composite_traits: tuple[str, ...]
    capability_left_out: tuple[str, ...] = Field(
        default=(),
        description="capability traits deliberately not judged (judge score --traits); "
        "the composite is then withheld",
    )

    @property
    def hashes(self) -> dict[str, str]:
        return {name: r.content_hash for name, r in sorted(self.rubrics.items())}

    @property
    def uses_custom(self) -> bool:
        return any(r.source == "custom" for r in self.rubrics.values())

    def with_overrides(self, custom: Mapping[str, Rubric]) -> RubricSet:
        """Replace built-in rubrics by custom ones (for traits the set already has)."""
        if unknown := sorted(set(custom) - set(self.rubrics)):
            raise RubricError(f"custom rubrics for unknown traits: {unknown}")
        merged = {
            **self.rubrics,
            **{k: r.model_copy(update={"source": "custom"}) for k, r in custom.items()},
        }
        return self.model_copy(update={"rubrics": merged})

    def select(self, traits: list[str]) -> RubricSet:
        if unknown := sorted(set(traits) - set(self.rubrics)):
            raise RubricError(f"unknown traits: {unknown}; known: {sorted(self.rubrics)}")
        return RubricSet(
            rubrics={t: self.rubrics[t] for t in traits},
            packs={t: self.packs[t] for t in traits},
            composite_traits=tuple(t for t in self.composite_traits if t in traits),
        )

    def traits_of(self, kind: PackKind) -> list[str]:
        """The traits whose pack is of ``kind``, in pack order."""
        return [t for t, pack in self.packs.items() if pack == kind]

    def only(self, traits: list[str]) -> RubricSet:
        """Just ``traits`` (RubricError for an unknown one), remembering the capability
        traits left out: the composite is then withheld, never computed from part of a pack."""
        chosen = self.select(traits)
        left_out = tuple(t for t in self.composite_traits if t not in chosen.rubrics)
        return chosen.model_copy(update={"capability_left_out": left_out})


def load_rubric_set(root: Path | None = None) -> RubricSet:
    """Load every pack under traits/ and the rubric of each trait they list."""
    root = root or data_dir()
    packs = [_load(TraitPack, p) for p in sorted((root / "traits").glob("*.yaml"))]
    if not packs:
        raise RubricError(f"{root / 'traits'}: no trait packs found")
    kinds: dict[str, PackKind] = {}
    for pack in packs:
        for trait in pack.traits:
            if trait in kinds:
                raise RubricError(f"trait {trait!r} is listed in more than one pack")
            kinds[trait] = pack.kind
    rubrics = {t: load_rubric(root / "rubrics" / f"{t}.yaml") for t in kinds}
    counted = tuple(t for pack in packs if pack.in_composite for t in pack.traits)
    return RubricSet(rubrics=rubrics, packs=kinds, composite_traits=counted)


@lru_cache(maxsize=1)
def default_rubric_set() -> RubricSet:
    return load_rubric_set()
