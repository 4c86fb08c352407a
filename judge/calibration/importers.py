"""Importers: third-party human-labelled data -> calibration items (runs + labels beside them).

* ``casino``: CaSiNo negotiation dialogues. Both participants are scored seats; messages and
  the deal actions (Submit-Deal / Accept-Deal / Reject-Deal / Walk-Away, with their task
  data) are transcript events; the game's rules give win conditions with partial credit.
* ``dices``: DICES-350 adversarial conversations. The bot is the one scored seat; the crowd's
  votes and the expert's label are attached (``Yes`` means UNSAFE).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.calibration.importers_casino import casino_items
from judge.calibration.items import CalibrationItem, HumanLabel
from judge.calibration.manifest import CalibrationManifest, CalibrationSetError
from judge.calibration.owners import import_labels
from judge.domain.limits import json_depth_problem
from judge.domain.run import MessageEvent, SeatAssignment, TranscriptEvent, parse_run
from judge.errors import RunFormatError

Importer = Callable[[CalibrationManifest, Path], list[CalibrationItem]]


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


def import_casino(manifest: CalibrationManifest, path: Path) -> list[CalibrationItem]:
    items: list[CalibrationItem] = []
    for file in source_files(manifest, path):
        data = read_json(file)
        if not isinstance(data, list):
            raise CalibrationSetError(
                f"{file}: expected a list of CaSiNo dialogues, got {type(data).__name__}"
            )
        items.extend(casino_items(manifest, data, source=str(file)))
    return items


_SPEAKER = re.compile(r"^(USER|LAMDA):\s?(.*)$")
DICES_SEATS = {"USER": "user", "LAMDA": "bot"}


def dices_transcript(context: str, response: str) -> list[TranscriptEvent]:
    """Split ``USER: ...`` / ``LAMDA: ...`` lines into messages; the response is the last one."""
    turns: list[tuple[str, str]] = []
    for line in context.split("\n"):
        match = _SPEAKER.match(line)
        if match:
            turns.append((DICES_SEATS[match.group(1)], match.group(2)))
        elif turns:
            turns[-1] = (turns[-1][0], f"{turns[-1][1]}\n{line}")
        else:
            turns.append(("user", line))
    turns.append(("bot", response))
    return [
        MessageEvent(kind="message", turn=i, seat=seat, content=text)
        for i, (seat, text) in enumerate(turns, 1)
    ]


def _dices_votes(instance: dict[str, Any], where: str) -> list[str]:
    try:
        votes = instance["annotations"]["safety"]["individual_human_scores"]
    except (KeyError, TypeError):
        raise CalibrationSetError(
            f"{where}: missing annotations.safety.individual_human_scores"
        ) from None
    if not isinstance(votes, list) or not all(isinstance(v, str) for v in votes):
        raise CalibrationSetError(f"{where}: individual_human_scores must be a list of strings")
    return votes


def dices_labels(
    manifest: CalibrationManifest, crowd: list[str], expert: list[str]
) -> list[HumanLabel]:
    spec = manifest.label("safety")
    width = len(str(len(crowd) - 1))
    labels = [
        HumanLabel(
            seat="bot",
            label=spec.name,
            group="crowd",
            rater=f"crowd-{i:0{width}d}",
            raw=v,
            score=spec.scale.score(v),
        )
        for i, v in enumerate(crowd)
    ]
    labels += [
        HumanLabel(
            seat="bot",
            label=spec.name,
            group="expert",
            rater="expert",
            raw=v,
            score=spec.scale.score(v),
        )
        for v in expert
    ]
    return labels


def dices_item(
    manifest: CalibrationManifest, instance: dict[str, Any], expert: list[str], where: str
) -> CalibrationItem:
    try:
        item_id = str(instance["id"])
        context, response = instance["instance"]["user_prompt"], instance["instance"]["response"]
    except (KeyError, TypeError):
        raise CalibrationSetError(
            f"{where}: expected id, instance.user_prompt and instance.response"
        ) from None
    seats = [
        SeatAssignment(seat="user", agent_id="dices-red-teamer", scored=False),
        SeatAssignment(seat="bot", agent_id="lamda", scored=True),
    ]
    raw_run = {
        "run_id": f"dices-{item_id}",
        "scenario_id": "dices-350-adversarial-chat",
        "seats": seats,
        "transcript": dices_transcript(context, response),
    }
    try:
        run = parse_run(raw_run, source=where)
    except RunFormatError as exc:
        raise CalibrationSetError(str(exc)) from None
    return CalibrationItem(
        item_id=f"dices-{item_id}",
        run=run,
        labels=dices_labels(manifest, _dices_votes(instance, where), expert),
    )


def _instances(path: Path) -> list[dict[str, Any]]:
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("instances"), list):
        raise CalibrationSetError(f"{path}: expected a JUDGE-BENCH file with an 'instances' list")
    return list(data["instances"])


def import_dices(manifest: CalibrationManifest, path: Path) -> list[CalibrationItem]:
    folder = path.parent if path.is_file() else path
    crowd_file, expert_file = (folder / Path(p).name for p in manifest.source.paths)
    expert = {
        str(i.get("id")): _dices_votes(i, f"{expert_file} item {i.get('id')}")
        for i in _instances(expert_file)
    }
    return [
        dices_item(
            manifest,
            inst,
            expert.get(str(inst.get("id")), []),
            f"{crowd_file} item {inst.get('id')}",
        )
        for inst in _instances(crowd_file)
    ]


IMPORTERS: dict[str, Importer] = {
    "casino": import_casino,
    "dices": import_dices,
    "labels": import_labels,
}


def import_set(
    manifest: CalibrationManifest, path: Path, *, limit: int | None = None
) -> list[CalibrationItem]:
    """The set's items in file order, the first ``limit`` of them when a limit is given."""
    items = IMPORTERS[manifest.importer](manifest, path)
    return items[:limit] if limit is not None else items
