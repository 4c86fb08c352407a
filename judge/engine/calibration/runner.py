"""Run the judge over a calibration set, resumably: every pass is appended to
``passes.jsonl`` as it finishes, never mixing judgings (docs/calibration.md, "Commands")."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from judge.core.domain.judging import JudgePass, SeatPassKey
from judge.core.versions import JUDGE_PROMPT_VERSION, UNDEFENDED_PROMPT_VERSION
from judge.engine.calibration.items import CalibrationItem, read_jsonl
from judge.engine.calibration.manifest import CalibrationSetError
from judge.engine.calibration.report import JudgedPasses
from judge.engine.judging.backends import JudgeBackend
from judge.engine.packs import RubricSet
from judge.engine.pipeline import Progress, ScoringOptions, judge_run
from judge.engine.settings import judge_spec, judging_environment


class PassRecord(BaseModel):
    """One line of ``passes.jsonl``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    item_id: str
    seat: str
    judge_model: str
    judge_pass: JudgePass = Field(alias="pass")
    prompt_version: int | None = None
    decoders: dict[str, str] | None = None


class PassStamp(NamedTuple):
    """Which judging a line of ``passes.jsonl`` comes from (model, prompt version, decode)."""

    judge_model: str
    prompt_version: int
    decoders: dict[str, str] | None


def stamp_of(judge_model: str, prompt_version: int) -> PassStamp:
    """The stamp of passes judged now: a defence-off pass depends only on the embedded judge's
    undefended grammar, so its decode is named by that alone."""
    decoders = judge_spec(judge_model).decoders
    if prompt_version == UNDEFENDED_PROMPT_VERSION and decoders:
        from judge.engine.judging.providers.embedded import (
            decode_identity,
            undefended_decode_identity,
        )

        env = judging_environment()
        embedded = decode_identity(env)
        decoders = {
            m: undefended_decode_identity(env) if d == embedded else d for m, d in decoders.items()
        }
    return PassStamp(judge_model, prompt_version, decoders)


def _check_stamp(path: Path, record: PassRecord, stamp: PassStamp) -> None:
    if record.judge_model != stamp.judge_model:
        raise CalibrationSetError(
            f"{path} holds passes by {record.judge_model!r}, not {stamp.judge_model!r}: use another --out folder"
        )
    if record.prompt_version not in (None, stamp.prompt_version):
        raise CalibrationSetError(
            f"{path}: a pass of {record.item_id} was judged with prompt version {record.prompt_version}, "
            f"not {stamp.prompt_version}: use another --out folder (or the --defence it was judged with)"
        )
    if record.decoders is not None and record.decoders != stamp.decoders:
        raise CalibrationSetError(
            f"{path}: a pass of {record.item_id} was judged with decode {record.decoders}, not {stamp.decoders}: "
            "use another --out folder"
        )


def load_store(
    path: Path, judge_model: str, prompt_version: int = JUDGE_PROMPT_VERSION
) -> dict[str, dict[SeatPassKey, JudgePass]]:
    """Passes already made, per item, keyed (seat, trait, pass index); CalibrationSetError
    for a line of another judging. ``prompt_version``: 4 with the defence off."""
    if not path.exists():
        return {}
    stamp = stamp_of(judge_model, prompt_version)
    done: dict[str, dict[SeatPassKey, JudgePass]] = defaultdict(dict)
    for record in read_jsonl(path, PassRecord):
        _check_stamp(path, record, stamp)
        p = record.judge_pass
        done[record.item_id][(record.seat, p.trait, p.index)] = p
    return dict(done)


class StoredJudging(NamedTuple):
    """A whole pass store read back: the judging that made it and its passes by (item, seat,
    trait), in pass order."""

    stamp: PassStamp
    passes: JudgedPasses


def read_judging(path: Path) -> StoredJudging:
    """Every pass of a pass store, offline: the judging is the one its stamped lines name (a
    line written before stamps were kept counts as that judging), and a line of another
    judging is refused as :func:`load_store` refuses it (CalibrationSetError; also for a store
    with no pass). A pass judged twice counts once, the later line winning, as on resume."""
    records = read_jsonl(path, PassRecord)
    if not records:
        raise CalibrationSetError(f"{path}: no pass in it")
    named = [r for r in records if r.prompt_version is not None or r.decoders is not None]
    first = (named or records)[0]
    stamp = PassStamp(
        first.judge_model,
        JUDGE_PROMPT_VERSION if first.prompt_version is None else first.prompt_version,
        first.decoders,
    )
    done: dict[tuple[str, str, str], dict[int, JudgePass]] = defaultdict(dict)
    for record in records:
        _check_stamp(path, record, stamp)
        p = record.judge_pass
        done[(record.item_id, record.seat, p.trait)][p.index] = p
    passes = {key: [made[i] for i in sorted(made)] for key, made in done.items()}
    return StoredJudging(stamp, passes)


class PassStore:
    """Append-only JSON lines of finished passes, flushed one by one."""

    def __init__(
        self, path: Path, judge_model: str, prompt_version: int = JUDGE_PROMPT_VERSION
    ) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.stamp = stamp_of(judge_model, prompt_version)

    def append(self, item_id: str, seat: str, judge_pass: JudgePass) -> None:
        record = PassRecord(
            item_id=item_id, seat=seat, judge_pass=judge_pass, **self.stamp._asdict()
        )
        with self.path.open("a", encoding="utf-8") as out:
            out.write(record.model_dump_json(by_alias=True) + "\n")


async def judge_items(
    items: Sequence[CalibrationItem],
    *,
    rubrics: RubricSet,
    options: ScoringOptions,
    backend: JudgeBackend,
    store: PassStore,
    tick: Progress | None = None,
    stored: Mapping[str, Mapping[SeatPassKey, JudgePass]] | None = None,
) -> JudgedPasses:
    """Every pass of every scored seat of every item; ``stored`` passes (read here when not
    given) are reused, not re-judged."""
    s = store.stamp
    done = stored if stored is not None else load_store(store.path, s.judge_model, s.prompt_version)
    per_seat = len(rubrics.rubrics) * options.settings.denoise.passes
    total = sum(len(i.run.scored_seats) for i in items) * per_seat
    counter = [sum(1 for i in items for k in done.get(i.item_id, {}) if k[1] in rubrics.rubrics)]

    async def judge_one(item: CalibrationItem) -> Mapping[str, Sequence[JudgePass]]:
        def record(seat: str, p: JudgePass) -> None:
            store.append(item.item_id, seat, p)
            counter[0] += 1
            if tick is not None:
                tick(counter[0], total)

        return await judge_run(
            item.run,
            rubrics=rubrics,
            options=options,
            backend=backend,
            done=done.get(item.item_id, {}),
            on_pass=record,
        )

    return await passes_by_item(items, judge_one)


async def passes_by_item(
    items: Sequence[CalibrationItem],
    judge_one: Callable[[CalibrationItem], Awaitable[Mapping[str, Sequence[JudgePass]]]],
) -> JudgedPasses:
    """Each item judged in turn by ``judge_one`` (its passes per seat), the passes keyed by
    item, seat and trait."""
    out: dict[tuple[str, str, str], list[JudgePass]] = {}
    for item in items:
        for seat, passes in (await judge_one(item)).items():
            for p in passes:
                out.setdefault((item.item_id, seat, p.trait), []).append(p)
    return out


def judge_items_sync(items: Sequence[CalibrationItem], **kwargs: object) -> JudgedPasses:
    return asyncio.run(judge_items(items, **kwargs))  # type: ignore[arg-type]
