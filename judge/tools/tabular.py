"""Scorecards, from files or the store, out as tables: CSV, JSON Lines or parquet (rows from
:mod:`judge.core.domain.rows`; docs/export.md)."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import ValidationError

from judge.core.domain.limits import json_depth_problem
from judge.core.domain.rows import COLUMN_TYPES, PASS_COLUMNS, TRAIT_COLUMNS, Cell, Row
from judge.core.domain.scorecard import Scorecard
from judge.core.errors import ConfigError, InputError, describe_validation_error
from judge.core.scoring.figures import rounded

Table = Literal["traits", "passes"]
Format = Literal["csv", "jsonl", "parquet"]
BATCH = 500


def rows_of(cards: Iterable[Scorecard], table: Table) -> Iterator[Row]:
    for card in cards:
        yield from card.to_rows(table)


def _card(data: Any, source: str) -> Scorecard:
    try:
        return Scorecard.model_validate(data)
    except ValidationError as exc:
        raise InputError(f"{source}: not a scorecard: {describe_validation_error(exc)}") from None


def read_scorecard_files(paths: Sequence[Path]) -> Iterator[Scorecard]:
    """Cards from files holding JSON Lines (one card per line), one card, or a list of cards
    (InputError: unreadable, not JSON, or not cards)."""
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            raise InputError(f"{path}: cannot read the scorecard file: {why}") from None
        for source, item in _documents(text, path):
            yield _card(item, source)


def _documents(text: str, path: Path) -> Iterator[tuple[str, Any]]:
    """(where, data) of each card in a file: the whole file when it is one JSON document,
    else each non-empty line (JSON Lines). Nesting is bounded before parsing (exit 2)."""
    problem = json_depth_problem(text.encode("utf-8", errors="surrogatepass"))
    if problem:
        raise InputError(f"{path}: {problem}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as whole:
        lines = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
        if len(lines) < 2:
            raise InputError(
                f"{path}: not valid JSON: {whole.msg} at line {whole.lineno}"
            ) from None
        for n, line in lines:
            try:
                yield f"{path}:{n}", json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}: line {n} is not valid JSON: {exc.msg}") from None
        return
    if isinstance(data, list):
        yield from ((f"{path}[{index}]", item) for index, item in enumerate(data))
    else:
        yield str(path), data


def stored_scorecards(database_url: str, *, era: str | None = None) -> Iterator[Scorecard]:
    """Every stored owner scorecard (optionally of one era), in run id order, read in batches."""
    from sqlalchemy.exc import OperationalError, ProgrammingError
    from sqlmodel import Session

    from judge.server.store.db import make_engine
    from judge.server.store.scorecards import scorecards_in_order

    _require_sqlite_file(database_url)
    engine = make_engine(database_url)
    try:
        with Session(engine) as session:
            yield from scorecards_in_order(session, era=era, batch=BATCH)
    except (OperationalError, ProgrammingError) as exc:
        raise ConfigError(
            f"cannot read scorecards from {database_url.split('@')[-1]!r}: {type(exc.orig).__name__} "
            "(is JUDGE_DATABASE_URL the service's store, and migrated?)"
        ) from None
    finally:
        engine.dispose()


def _require_sqlite_file(database_url: str) -> None:
    """Refuse a SQLite path that does not exist (opening it would create an empty store)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(database_url)
    except ArgumentError:  # make_engine reports a malformed URL with its own message
        return
    missing = url.database not in (None, "", ":memory:") and not Path(str(url.database)).is_file()
    if url.get_backend_name() == "sqlite" and missing:
        raise ConfigError(
            f"no store at {url.database!r}: set JUDGE_DATABASE_URL or give scorecard files"
        )


#: A text cell starting with one of these is read as a formula by spreadsheet programs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """Text made inert for spreadsheets: a cell that would start a formula gets a leading
    single quote (the OWASP rule against CSV injection; docs/export.md)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _csv_cell(value: Cell) -> str | int | float | bool:
    """Empty for a missing value, a JSON array for a list, inert text, numbers as they are."""
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(rounded(value))
    return csv_text(value) if isinstance(value, str) else rounded(value)


def write_csv(rows: Iterable[Row], columns: Sequence[str], out: IO[str]) -> int:
    """CSV with a header line (cells by :func:`_csv_cell`); the rows written."""
    writer = csv.DictWriter(
        out, fieldnames=list(columns), extrasaction="raise", lineterminator="\n"
    )
    writer.writeheader()
    count = 0
    for row in rows:
        writer.writerow({k: _csv_cell(v) for k, v in row.items()})
        count += 1
    return count


def write_jsonl(rows: Iterable[Row], out: IO[str]) -> int:
    count = 0
    for row in rows:
        out.write(json.dumps(rounded(row), ensure_ascii=False) + "\n")
        count += 1
    return count


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ConfigError(
            "parquet output needs pyarrow: pip install 'judge[parquet]' (or use --format csv / jsonl)"
        ) from None
    return pyarrow


def arrow_schema(columns: Sequence[str]) -> Any:
    """The parquet schema of a table, from ``COLUMN_TYPES`` (a list is a list of doubles)."""
    pa = _pyarrow()
    kinds = {
        str: pa.string(),
        int: pa.int64(),
        float: pa.float64(),
        bool: pa.bool_(),
        list: pa.list_(pa.float64()),
    }
    return pa.schema([(name, kinds[COLUMN_TYPES[name]]) for name in columns])


def write_parquet(rows: Iterable[Row], columns: Sequence[str], path: Path) -> int:
    """A parquet file, written in row groups of a few thousand rows; the rows written."""
    pa = _pyarrow()
    schema = arrow_schema(columns)
    count = 0
    with pa.parquet.ParquetWriter(str(path), schema) as writer:
        batch: list[Row] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= 10 * BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                count, batch = count + len(batch), []
        if batch or count == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            count += len(batch)
    return count


def write_table(
    rows: Iterable[Row], table: Table, fmt: Format, out: Path | None, stdout: IO[str]
) -> int:
    """Write rows to a file (or stdout for the text formats; InputError for parquet); the count.
    A file is written beside its final name and renamed into place when complete."""
    columns = TRAIT_COLUMNS if table == "traits" else PASS_COLUMNS
    if out is None:
        if fmt == "parquet":
            raise InputError("--format parquet writes a binary file: give --out PATH")
        return write_csv(rows, columns, stdout) if fmt == "csv" else write_jsonl(rows, stdout)
    partial = out.with_name(f".{out.name}.partial")
    try:
        count = _write_file(rows, columns, fmt, partial)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return count


def _write_file(rows: Iterable[Row], columns: Sequence[str], fmt: Format, path: Path) -> int:
    if fmt == "parquet":
        return write_parquet(rows, columns, path)
    with path.open("w", encoding="utf-8", newline="") as handle:
        return write_csv(rows, columns, handle) if fmt == "csv" else write_jsonl(rows, handle)
