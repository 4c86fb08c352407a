"""Calibration set manifests (``calibration_sets/<name>.yaml``): where a human-labelled set
comes from and what its labels mean. The data itself is never shipped."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from judge.core.domain.rubric import TraitName
from judge.core.errors import InputError, describe_validation_error
from judge.engine.packs import data_dir, read_yaml
from judge.engine.settings import process_settings

Level = Literal["nominal", "ordinal", "interval"]
Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_\-]*$", max_length=80)]


class CalibrationSetError(InputError):
    """A calibration manifest or its data is missing or malformed."""


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Spec):
    repository: str = Field(min_length=3, description="owner/name on GitHub")
    commit: str = Field(pattern=r"^[0-9a-f]{40}$")
    paths: list[str] = Field(min_length=1)
    url: str | None = None


class Licence(_Spec):
    name: str = Field(min_length=2)
    url: str | None = None


class RaterGroup(_Spec):
    """Who gave a label. ``panel`` groups form the human panel (alpha, ceiling); the others
    (e.g. a single expert) are reported as a separate reference."""

    name: Name
    raters_per_item: int = Field(ge=1)
    panel: bool = True
    description: str = Field(min_length=3)


class Scale(_Spec):
    level: Level
    values: dict[str, float] = Field(min_length=2, description="raw answer -> score on 0..1")

    @model_validator(mode="after")
    def _on_unit_interval(self) -> Scale:
        bad = {k: v for k, v in self.values.items() if not 0.0 <= v <= 1.0}
        if bad:
            raise ValueError(f"scale values must lie in 0..1, got {bad}")
        return self

    @property
    def n_points(self) -> int:
        return len(set(self.values.values()))

    def score(self, raw: str) -> float:
        try:
            return self.values[raw]
        except KeyError:
            raise CalibrationSetError(
                f"label {raw!r} is not on the scale {sorted(self.values)}"
            ) from None


class LabelSpec(_Spec):
    name: Name
    question: str = Field(min_length=5)
    rated_by: list[Name] = Field(min_length=1)
    scale: Scale
    traits: list[TraitName] = Field(min_length=1)
    note: str = ""


class CalibrationManifest(_Spec):
    name: Name
    title: str
    description: str
    importer: Name = Field(
        description="the set importer that reads its files (judge.tools.importers)"
    )
    source: Source
    licence: Licence
    citation: str = Field(min_length=10)
    local_folder: str = Field(description="folder under the shared data root holding the files")
    raters: list[RaterGroup] = Field(min_length=1)
    labels: list[LabelSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _groups_are_known(self) -> CalibrationManifest:
        known = {g.name for g in self.raters}
        for label in self.labels:
            unknown = sorted(set(label.rated_by) - known)
            if unknown:
                raise ValueError(
                    f"labels.{label.name}.rated_by: unknown rater groups {unknown}; known {sorted(known)}"
                )
        return self

    def label(self, name: str) -> LabelSpec:
        found = [spec for spec in self.labels if spec.name == name]
        if not found:
            raise CalibrationSetError(
                f"{self.name}: no label {name!r}; known {[s.name for s in self.labels]}"
            )
        return found[0]

    def group(self, name: str) -> RaterGroup:
        return next(g for g in self.raters if g.name == name)

    @property
    def traits(self) -> list[str]:
        return list(dict.fromkeys(t for spec in self.labels for t in spec.traits))


def manifests_dir() -> Path:
    return data_dir() / "calibration_sets"


def known_sets() -> list[str]:
    return sorted(p.stem for p in manifests_dir().glob("*.yaml"))


def load_manifest(name_or_path: str | Path) -> CalibrationManifest:
    """A manifest by set name (``casino``) or by path to a YAML file."""
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml"):
        path = manifests_dir() / f"{name_or_path}.yaml"
        if not path.is_file():
            raise CalibrationSetError(
                f"no calibration set {str(name_or_path)!r}; known sets: {known_sets()}"
            )
    try:
        data = read_yaml(path)
    except InputError as exc:
        raise CalibrationSetError(str(exc)) from None
    try:
        return CalibrationManifest.model_validate(data)
    except ValidationError as exc:
        raise CalibrationSetError(f"{path}: {describe_validation_error(exc)}") from None


def shared_data_dir() -> Path:
    """The shared data root: ``JUDGE_SHARED_DATA``, else ``<repository>/../shared/data``."""
    if (configured := process_settings().shared_data) is not None:
        return configured
    return Path(__file__).resolve().parents[3].parent / "shared" / "data"


def default_data_path(manifest: CalibrationManifest) -> Path:
    """Where a set's files are when no path is given: the shared data root's folder for it."""
    path = shared_data_dir() / manifest.local_folder
    if not path.exists():
        raise CalibrationSetError(
            f"{manifest.name}: data not found at {path}; pass the folder holding "
            f"{[Path(p).name for p in manifest.source.paths]} (or set JUDGE_SHARED_DATA)"
        )
    return path
