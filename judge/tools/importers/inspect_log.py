"""Inspect AI logs to runs: one run per sample and epoch, read with Inspect's own reader
(extra ``judge[inspect]``); the mapping is docs/integrations.md, "Inspect AI"."""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.core.domain.run import (
    ActionEvent,
    ActionStatus,
    MessageEvent,
    ObservationEvent,
    SeatAssignment,
    SystemEvent,
    TranscriptEvent,
    WinCondition,
    parse_run,
)
from judge.core.errors import ConfigError, InputError
from judge.tools.importers.common import (
    ImportedRun,
    ImportNotes,
    check_archive,
    check_json_file,
    map_score_value,
    safe_id,
)

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog, EvalSample
    from inspect_ai.model import ChatMessage
    from inspect_ai.scorer import Score

AGENT = "agent"
USER = "user"


def read_log(path: Path) -> EvalLog:
    """An Inspect log (.eval or .json), attachments resolved, once held to the import bounds
    (ConfigError without inspect_ai; InputError for a missing, out-of-bounds or foreign file)."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise ConfigError(
            "reading Inspect logs needs inspect_ai: pip install 'judge[inspect]'"
        ) from None
    if not path.is_file():
        raise InputError(f"{path}: no such Inspect log file")
    if zipfile.is_zipfile(path):
        check_archive(path)
    else:
        check_json_file(path)
    try:
        return read_eval_log(str(path), resolve_attachments=True)
    except (ValueError, KeyError, OSError, zipfile.BadZipFile) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path}: not a readable Inspect log: {first}") from None


def score_conditions(scores: Mapping[str, Score] | None) -> tuple[list[WinCondition], list[str]]:
    """Win conditions from a sample's scores (a mapping value gives one per key), and one line
    per value that could not map."""
    conditions, skipped = [], []
    for name, score in (scores or {}).items():
        values = score.value if isinstance(score.value, Mapping) else {None: score.value}
        for key, value in values.items():
            cid = safe_id(name, key, fallback="score")
            mapped = map_score_value(value)
            if mapped.met is None:
                skipped.append(f"score {cid}: {mapped.reason}")
            else:
                conditions.append(WinCondition(id=cid, met=mapped.met, progress=mapped.progress))
    return conditions, skipped


def _tool_statuses(messages: Sequence[ChatMessage]) -> dict[str, ActionStatus]:
    """Tool call id -> action status, from the tool messages that answered the calls."""
    failed: dict[str, ActionStatus] = {"approval": "rejected", "timeout": "unknown"}
    return {
        m.tool_call_id: "ok" if m.error is None else failed.get(m.error.type, "error")
        for m in messages
        if m.role == "tool" and m.tool_call_id
    }


def _assistant_events(
    message: Any, turn: int, statuses: Mapping[str, ActionStatus]
) -> list[TranscriptEvent]:
    events: list[TranscriptEvent] = [
        MessageEvent(kind="message", turn=turn, seat=AGENT, content=message.text)
    ]
    for call in message.tool_calls or []:
        status: ActionStatus = "rejected" if call.parse_error else statuses.get(call.id, "unknown")
        args = call.arguments if isinstance(call.arguments, dict) else {"arguments": call.arguments}
        name = call.function or "tool"
        events.append(
            ActionEvent(kind="action", turn=turn, seat=AGENT, name=name, args=args, status=status)
        )
    return events


def _message_event(message: Any, turn: int) -> TranscriptEvent:
    if message.role == "system":
        return SystemEvent(kind="system", turn=turn, seat=AGENT, content=message.text)
    if message.role == "user":
        return MessageEvent(kind="message", turn=turn, seat=USER, content=message.text)
    text = message.text
    if message.error is not None and not text:
        text = f"error: {message.error.message}"
    return ObservationEvent(kind="observation", turn=turn, seat=AGENT, content=text)


def transcript_from_messages(messages: Sequence[ChatMessage]) -> list[TranscriptEvent]:
    """Transcript events, one per message plus one per tool call; the first input after an
    assistant message starts the next turn."""
    statuses = _tool_statuses(messages)
    events: list[TranscriptEvent] = []
    turn, replied = 1, False
    for message in messages:
        if message.role == "assistant":
            events += _assistant_events(message, turn, statuses)
            replied = True
            continue
        if replied:
            turn, replied = turn + 1, False
        events.append(_message_event(message, turn))
    return events


def seats_for(events: Iterable[TranscriptEvent], agent_id: str) -> list[SeatAssignment]:
    """The scored agent seat, and the unscored user seat when the user spoke."""
    seats = [SeatAssignment(seat=AGENT, agent_id=agent_id, scored=True)]
    if any(e.seat == USER for e in events):
        seats.append(SeatAssignment(seat=USER, agent_id="inspect-dataset", scored=False))
    return seats


def sample_run(log: EvalLog, sample: EvalSample, source: str) -> ImportedRun:
    """One sample of one epoch as a run, with what could not be mapped in its notes."""
    spec = log.eval
    events = transcript_from_messages(sample.messages)
    conditions, skipped = score_conditions(sample.scores)
    run = parse_run(
        {
            "run_id": safe_id(spec.task, sample.id, f"e{sample.epoch}", spec.run_id[:8]),
            "scenario_id": safe_id(spec.task, sample.id),
            "seed": spec.model_generate_config.seed,
            "seats": [s.model_dump() for s in seats_for(events, safe_id(spec.model))],
            "transcript": [e.model_dump() for e in events],
            "win_conditions": [c.model_dump() for c in conditions],
        },
        source=f"{source} sample {sample.id} epoch {sample.epoch}",
    )
    notes = ImportNotes(
        source=source,
        origin={
            "format": "inspect",
            "task": spec.task,
            "eval_id": spec.eval_id,
            "inspect_run_id": spec.run_id,
            "sample_id": sample.id,
            "epoch": sample.epoch,
            "model": spec.model,
        },
        unmapped=_unmapped(sample),
        skipped=skipped + ([f"sample error: {sample.error.message}"] if sample.error else []),
    )
    return ImportedRun(run, notes)


def _unmapped(sample: EvalSample) -> dict[str, Any]:
    scores = {
        name: {"answer": s.answer, "explanation": s.explanation, "metadata": s.metadata}
        for name, s in (sample.scores or {}).items()
    }
    return {"target": sample.target, "metadata": sample.metadata, "scores": scores}


def runs_from_log(path: Path) -> list[ImportedRun]:
    """Every sample of every epoch in an Inspect log, as runs (InputError: none there)."""
    log = read_log(path)
    if not log.samples:
        raise InputError(f"{path}: the log holds no samples (status {log.status})")
    return [sample_run(log, sample, str(path)) for sample in log.samples]
