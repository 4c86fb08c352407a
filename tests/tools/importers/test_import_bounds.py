"""Every importer reads foreign files within bounds (docs/integrations.md, "Bounds"): a zip
bomb is refused from its directory before anything is inflated, a member whose declared
size lies is cut at that size, and JSON nested past the limit is a plain input error
(exit 2) in every importer, never a RecursionError."""

from __future__ import annotations

import struct
import time
import zipfile
from pathlib import Path

import pytest

from judge.core.domain.limits import MAX_IMPORT_DEPTH, bounded_loads, json_depth_problem
from judge.core.domain.run import parse_run_json
from judge.core.errors import InputError, RunFormatError
from judge.engine.calibration.items import ItemLabels, read_jsonl
from judge.engine.calibration.manifest import CalibrationSetError
from judge.tools.cli import main
from judge.tools.importers.common import (
    Bounds,
    check_archive,
    check_json_file,
    read_json_file,
    read_set_json,
)

DEEP = b"[" * 200_000 + b"]" * 200_000


def bomb(path: Path, size: int) -> Path:
    """An Inspect-like .eval archive whose header.json inflates from a few KB to ``size``."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("_journal/start.json", '{"version": 2}')
        with archive.open("header.json", "w") as member:
            chunk = b" " * (1024 * 1024)
            for _ in range(size // len(chunk)):
                member.write(chunk)
    return path


def test_depth_is_followed_across_strings_escapes_and_pieces() -> None:
    assert json_depth_problem(b'{"a": "[[[[", "b": [1, [2]]}', 3) is None
    assert json_depth_problem(b'["\\"[[[["]', 1) is None
    assert json_depth_problem(b"[[[[]]]]", 3) == "nested deeper than 3 levels"
    assert json_depth_problem(DEEP) == f"nested deeper than {MAX_IMPORT_DEPTH} levels"


def test_bounded_loads_refuses_deep_text_before_parsing() -> None:
    with pytest.raises(InputError, match="nested deeper than 128 levels"):
        bounded_loads(DEEP)
    assert bounded_loads('{"a": [1, {"b": "]]]"}]}') == {"a": [1, {"b": "]]]"}]}


def test_a_zip_bomb_is_refused_from_its_directory_at_once(tmp_path: Path) -> None:
    path = bomb(tmp_path / "bomb.eval", 64 * 1024 * 1024)
    assert path.stat().st_size < 256 * 1024

    started = time.perf_counter()
    with pytest.raises(InputError, match="'header.json' inflates .* refused as a zip bomb"):
        check_archive(path)
    assert time.perf_counter() - started < 1.0


def test_a_member_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = bomb(tmp_path / "big.eval", 4 * 1024 * 1024)

    with pytest.raises(InputError, match="inflates to 4194304 bytes, more than the import limit"):
        check_archive(path, Bounds(max_bytes=1024 * 1024, max_ratio=10**6))


def test_a_member_whose_declared_size_lies_is_cut_at_that_size(tmp_path: Path) -> None:
    path = bomb(tmp_path / "liar.eval", 8 * 1024 * 1024)
    data = bytearray(path.read_bytes())
    entry = data.rindex(b"PK\x01\x02")  # header.json is the last entry of the directory
    struct.pack_into("<I", data, entry + 24, 1000)  # its uncompressed size: 1000 bytes
    path.write_bytes(bytes(data))

    with pytest.raises(InputError, match="not a readable zip archive"):
        check_archive(path, Bounds(max_ratio=10**6))


def test_a_deep_json_member_of_an_archive_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.eval"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", b"[" * 1000 + b"]" * 1000)

    with pytest.raises(InputError, match="member 'header.json': nested deeper than 128 levels"):
        check_archive(path, Bounds(max_ratio=10**6))


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"[" + b"0," * 1000 + b"0]")

    with pytest.raises(InputError, match="more than the import limit of 100"):
        read_json_file(path, Bounds(max_bytes=100))


def test_import_otel_of_deep_json_exits_2_with_a_plain_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(DEEP)

    code = main(["import", "otel", str(path)])

    err = capsys.readouterr().err
    assert code == 2
    assert f"{path}: nested deeper than 128 levels" in err and "internal error" not in err


def test_import_inspect_of_a_zip_bomb_exits_2_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("inspect_ai")
    path = bomb(tmp_path / "bomb.eval", 64 * 1024 * 1024)

    started = time.perf_counter()
    code = main(["import", "inspect", str(path)])

    assert code == 2 and "refused as a zip bomb" in capsys.readouterr().err
    assert time.perf_counter() - started < 2.0


def test_score_of_a_deep_run_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    path = tmp_path / "deep.json"
    path.write_bytes(DEEP)

    code = main(["score", str(path), "--judge", "scripted/0.7", "--no-progress"])

    err = capsys.readouterr().err
    assert code == 2 and "nested deeper than 128 levels" in err and "internal error" not in err


def test_parse_run_json_names_the_source_of_deep_text() -> None:
    with pytest.raises(RunFormatError, match="^deep.json: nested deeper than 128 levels"):
        parse_run_json(DEEP, source="deep.json")


def test_a_calibration_set_file_nested_too_deep_is_a_set_error(tmp_path: Path) -> None:
    path = tmp_path / "casino_train.json"
    path.write_bytes(DEEP)

    with pytest.raises(CalibrationSetError, match="nested deeper than 128 levels"):
        read_set_json(path)


def test_a_json_file_is_followed_across_read_chunks(tmp_path: Path) -> None:
    deep, honest = tmp_path / "deep.json", tmp_path / "honest.json"
    deep.write_bytes(b" " * (1024 * 1024 - 3) + b"[" * 200 + b"]" * 200)
    # an escaped quote right at the chunk border, then brackets that are text
    honest.write_bytes(b'["' + b"x" * (1024 * 1024 - 3) + b'\\"' + b"[" * 500 + b'"]')

    with pytest.raises(InputError, match=f"^{deep}: nested deeper than 128 levels"):
        check_json_file(deep)
    check_json_file(honest)


def test_a_scorecard_file_nested_too_deep_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(DEEP)

    code = main(["export", "scorecards", str(path), "--format", "csv"])

    err = capsys.readouterr().err
    assert code == 2 and "nested deeper than 128 levels" in err and "internal error" not in err


def test_a_labels_line_nested_too_deep_is_a_set_error(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_bytes(b"\n" + DEEP + b"\n")

    with pytest.raises(CalibrationSetError, match=":2: nested deeper than 128 levels"):
        read_jsonl(path, ItemLabels)
