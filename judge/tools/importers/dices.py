"""DICES-350 adversarial conversations as calibration items (docs/calibration.md): the bot is the
one scored seat, with the crowd's votes and the expert's label (``Yes`` means UNSAFE)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judge.core.domain.run import MessageEvent, SeatAssignment, TranscriptEvent, parse_run
from judge.core.errors import RunFormatError
from judge.core.integrity import linear
from judge.engine.calibration.items import CalibrationItem, HumanLabel
from judge.engine.calibration.manifest import CalibrationManifest, CalibrationSetError
from judge.tools.importers.common import read_set_json
from judge.tools.importers.entries import SetImporter

_SPEAKER = linear.compile(r"^(USER|LAMDA):\s?(.*)$")
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
    raters = [("crowd", f"crowd-{i:0{width}d}", v) for i, v in enumerate(crowd)]
    return [
        HumanLabel(
            seat="bot", label=spec.name, group=group, rater=rater, raw=v, score=spec.scale.score(v)
        )
        for group, rater, v in raters + [("expert", "expert", v) for v in expert]
    ]


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
    data = read_set_json(path)
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
    items = []
    for inst in _instances(crowd_file):
        where = f"{crowd_file} item {inst.get('id')}"
        items.append(dices_item(manifest, inst, expert.get(str(inst.get("id")), []), where))
    return items


IMPORTER = SetImporter(
    name="dices",
    summary="DICES-350: adversarial chats with crowd and expert safety votes",
    read=import_dices,
)
