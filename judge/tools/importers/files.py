"""Reading a calibration set's own files: bounded JSON, and the files a folder holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from judge.core.domain.limits import json_depth_problem
from judge.engine.calibration.manifest import CalibrationManifest, CalibrationSetError


def read_json(path: Path) -> Any:
    """A set's JSON file, its nesting bounded before it is parsed (docs/integrations.md)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CalibrationSetError(f"{path}: file not found") from None
    problem = json_depth_problem(data)
    if problem:
        raise CalibrationSetError(f"{path}: {problem}")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise CalibrationSetError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise CalibrationSetError(
            f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}"
        ) from None


def source_files(manifest: CalibrationManifest, path: Path) -> list[Path]:
    """The set's files: ``path`` itself, or those of the manifest's paths found in the folder."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise CalibrationSetError(f"{path}: no such file or folder")
    found = [path / Path(p).name for p in manifest.source.paths if (path / Path(p).name).is_file()]
    if not found:
        names = [Path(p).name for p in manifest.source.paths]
        raise CalibrationSetError(f"{path}: holds none of the {manifest.name} files {names}")
    return found
