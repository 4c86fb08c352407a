"""Repository functions for judge passes: stored one by one as they finish."""

from __future__ import annotations

import functools
import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Session, col, select

from judge.core.domain.judging import JudgePass, SeatPassKey
from judge.server.store.tables import PassRow, RunRow, table_of, utcnow

_PASSES = table_of(PassRow)
_RUNS = table_of(RunRow)
_COLUMNS = [c for c in _PASSES.columns if c.name != "id"]


def judge_pass(row: PassRow) -> JudgePass:
    """The pass a row stores."""
    same_names = row.model_dump(include=set(JudgePass.model_fields))
    distribution = row.score_distribution_json
    return JudgePass(
        **same_names,
        index=row.pass_index,
        cited_turns=json.loads(row.cited_turns_json),
        score_distribution=json.loads(distribution) if distribution else None,
    )


def _values(*, run_id: str, seat: str, judge_pass: JudgePass) -> dict[str, Any]:
    data = judge_pass.model_dump(exclude={"index", "cited_turns", "score_distribution"})
    distribution = judge_pass.score_distribution
    return {
        **data,
        "run_id": run_id,
        "seat": seat,
        "pass_index": judge_pass.index,
        "cited_turns_json": json.dumps(judge_pass.cited_turns),
        "score_distribution_json": json.dumps(distribution) if distribution is not None else None,
        "created_at": utcnow(),
    }


@functools.cache
def _insert_if_claimed(dialect: str) -> sa.Insert:
    """``INSERT INTO passes SELECT <values> WHERE <the run is scoring under this claim>``; on
    PostgreSQL each value cast to its column's type (a bare SELECT parameter reads as text)."""

    def value(column: sa.Column[Any]) -> sa.ColumnElement[Any]:
        bind = sa.bindparam(column.name, type_=column.type)
        return sa.cast(bind, column.type) if dialect == "postgresql" else bind

    claimed = sa.exists().where(
        _RUNS.c.run_id == sa.bindparam("run_id"),
        _RUNS.c.scoring_starts == sa.bindparam("claimed"),
        _RUNS.c.status == "scoring",
    )
    rows = sa.select(*[value(c) for c in _COLUMNS]).where(claimed)
    insert = sa.insert(_PASSES).from_select([c.name for c in _COLUMNS], rows)
    return insert.execution_options(preserve_rowcount=True)


def insert_pass(
    session: Session | Connection,
    *,
    run_id: str,
    seat: str,
    judge_pass: JudgePass,
    claimed: int | None = None,
) -> bool:
    """Store one pass with one INSERT (IntegrityError when stored already); with ``claimed``
    (the run's ``scoring_starts`` at the claim), only while the run is still scoring under that
    claim, in the same statement. Returns whether it was stored."""
    values = _values(run_id=run_id, seat=seat, judge_pass=judge_pass)
    if claimed is None:
        session.execute(sa.insert(_PASSES), [values])
        return True
    bind = session.get_bind() if isinstance(session, Session) else session
    result = session.execute(_insert_if_claimed(bind.dialect.name), {**values, "claimed": claimed})
    return bool(result.rowcount)  # type: ignore[attr-defined]


def stored_passes(session: Session, *, run_id: str) -> dict[SeatPassKey, JudgePass]:
    """Every pass stored for a run, keyed (seat, trait, index): the `done` of a resumed run."""
    query = select(PassRow).where(PassRow.run_id == run_id).order_by(col(PassRow.id))
    return {(r.seat, r.trait, r.pass_index): judge_pass(r) for r in session.exec(query).all()}
