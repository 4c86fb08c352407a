"""What every importer shares: safe identifiers, the imported-run record, writing run files,
and reading foreign files within bounds (docs/integrations.md, "Bounds")."""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from judge.core.domain.limits import MAX_IMPORT_DEPTH, DepthGauge
from judge.core.domain.run import Run
from judge.core.errors import InputError
from judge.engine.calibration.manifest import CalibrationSetError
from judge.engine.traces.records import ImportedRun, ImportNotes, map_score_value, safe_id

__all__ = ["ImportNotes", "ImportedRun", "map_score_value", "safe_id"]

#: The most an importer reads of one file, or of one member of a zip archive once inflated.
MAX_IMPORT_BYTES = 512 * 1024 * 1024
#: The most all members of one zip archive may inflate to together.
MAX_ARCHIVE_BYTES = 2 * 1024 * 1024 * 1024
#: A member inflating to more than this many times its compressed size is taken for a bomb
#: (JSON logs compress about 5 to 20 times); members under ``RATIO_FREE_BYTES`` are exempt.
MAX_INFLATE_RATIO = 100
RATIO_FREE_BYTES = 1024 * 1024
_CHUNK = 1024 * 1024


class Bounds(NamedTuple):
    """What one foreign file may cost to read (the module's constants; tests shrink them)."""

    max_bytes: int = MAX_IMPORT_BYTES
    max_archive_bytes: int = MAX_ARCHIVE_BYTES
    max_ratio: int = MAX_INFLATE_RATIO
    max_depth: int = MAX_IMPORT_DEPTH


DEFAULT_BOUNDS = Bounds()


def check_json_file(path: Path, bounds: Bounds = DEFAULT_BOUNDS) -> None:
    """Refuse (InputError) a JSON or JSON Lines file over the size or nesting bounds, followed
    as a stream before any parser sees it."""
    gauge = DepthGauge(bounds.max_depth)
    try:
        if (size := path.stat().st_size) > bounds.max_bytes:
            raise InputError(f"{size} bytes, more than the import limit of {bounds.max_bytes}")
        with path.open("rb") as stream:
            while chunk := stream.read(_CHUNK):
                gauge.feed(chunk)
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file: {exc.strerror}") from None
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


def read_json_file(path: Path, bounds: Bounds = DEFAULT_BOUNDS) -> bytes:
    """A JSON (or JSON Lines) file's bytes, read once :func:`check_json_file` let it through."""
    check_json_file(path, bounds)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file: {exc.strerror}") from None


def read_set_json(path: Path) -> Any:
    """A calibration set's JSON file, parsed within the import bounds (CalibrationSetError)."""
    if not path.exists():
        raise CalibrationSetError(f"{path}: file not found")
    try:
        return json.loads(read_json_file(path).decode("utf-8"))
    except UnicodeDecodeError:
        raise CalibrationSetError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise CalibrationSetError(
            f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}"
        ) from None
    except InputError as exc:
        raise CalibrationSetError(str(exc)) from None


def check_archive(path: Path, bounds: Bounds = DEFAULT_BOUNDS) -> None:
    """Refuse (InputError) a zip archive (an Inspect ``.eval`` log) that would inflate beyond
    bounds: declared sizes first, then each member inflated as a stream that stops at the
    limit (a declared size can lie), its JSON nesting followed."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            _check_declared(path, members, bounds)
            for member in members:
                _inflate_within(path, archive, member, bounds)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(f"{path}: not a readable zip archive: {exc}") from None


def _check_declared(path: Path, members: list[zipfile.ZipInfo], bounds: Bounds) -> None:
    total = 0
    for member in members:
        size, packed = member.file_size, max(member.compress_size, 1)
        total += size
        if size > bounds.max_bytes:
            raise InputError(
                f"{path}: member {member.filename!r} inflates to {size} bytes, more than the "
                f"import limit of {bounds.max_bytes}"
            )
        if size > RATIO_FREE_BYTES and size / packed > bounds.max_ratio:
            raise InputError(
                f"{path}: member {member.filename!r} inflates {size // packed} times its size, "
                f"more than {bounds.max_ratio}: refused as a zip bomb"
            )
    if total > bounds.max_archive_bytes:
        raise InputError(
            f"{path}: members inflate to {total} bytes together, more than the import limit of "
            f"{bounds.max_archive_bytes}"
        )


def _inflate_within(
    path: Path, archive: zipfile.ZipFile, member: zipfile.ZipInfo, bounds: Bounds
) -> None:
    gauge = DepthGauge(bounds.max_depth) if member.filename.endswith(".json") else None
    seen = 0
    with archive.open(member) as stream:
        while chunk := stream.read(_CHUNK):
            seen += len(chunk)
            if seen > min(bounds.max_bytes, member.file_size):
                raise InputError(
                    f"{path}: member {member.filename!r} inflates past its declared size or the "
                    f"import limit of {bounds.max_bytes} bytes"
                )
            if gauge is not None:
                try:
                    gauge.feed(chunk)
                except InputError as exc:
                    raise InputError(f"{path}: member {member.filename!r}: {exc}") from None


def notes_path(run_path: Path) -> Path:
    return run_path.with_name(f"{run_path.stem}.import.json")


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def write_runs(
    imported: Sequence[ImportedRun], out_dir: Path, *, overwrite: bool = False
) -> list[Path]:
    """Write ``RUN_ID.json`` and ``RUN_ID.import.json`` for each run into ``out_dir``; every
    target is checked first (InputError: an id shared, or other content without ``overwrite``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    texts = {out_dir / f"{i.run.run_id}.json": run_text(i.run) for i in imported}
    if len(texts) < len(imported):
        raise InputError("two imported runs share a run id; give each sample or trace its own id")
    for path, text in texts.items():
        if not overwrite and path.is_file() and path.read_text(encoding="utf-8") != text:
            raise InputError(f"{path} exists with other content; remove it or pass --overwrite")
    for (path, text), item in zip(texts.items(), imported, strict=True):
        _write_atomically(path, text)
        _write_atomically(notes_path(path), item.notes.model_dump_json(indent=2) + "\n")
    return list(texts)


def run_text(run: Run) -> str:
    """A run as the indented JSON a person can read and `judge score` takes back."""
    return json.dumps(run.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
