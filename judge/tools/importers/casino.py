"""CaSiNo dialogues as calibration items: the game's rules as win conditions, the self-reports
as labels (docs/calibration.md). Rules (the set's README): a package is worth 5 / 4 / 3 points
by the side's High / Medium / Low priority; a walk-away gives both sides 5; the deal that
counts is the last Submit-Deal before an Accept-Deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from judge.core.domain.run import Run, parse_run
from judge.core.errors import RunFormatError
from judge.engine.calibration.items import CalibrationItem, HumanLabel
from judge.engine.calibration.manifest import CalibrationManifest, CalibrationSetError
from judge.tools.importers.common import read_set_json
from judge.tools.importers.entries import SetImporter

POINTS = {"High": 5, "Medium": 4, "Low": 3}
MAX_POINTS = 36
WALK_AWAY_POINTS = 5
DEAL_ACTIONS = ("Submit-Deal", "Accept-Deal", "Reject-Deal", "Walk-Away")


class Outcome(NamedTuple):
    deal_reached: bool
    walked_away_by: str | None
    points: dict[str, int]


def priorities(participant: dict[str, Any], where: str) -> dict[str, int]:
    """Points per package of each issue for one participant, from ``value2issue``."""
    try:
        return {issue: POINTS[level] for level, issue in participant["value2issue"].items()}
    except (KeyError, AttributeError):
        raise CalibrationSetError(
            f"{where}: value2issue must map High/Medium/Low to an issue"
        ) from None


def deal_points(
    deal: dict[str, Any], submitter: str, seat: str, worth: dict[str, int], where: str
) -> int:
    """Points ``seat`` gets from a submitted deal (the submitter's 'you get' is the other's 'they get')."""
    side = "issue2youget" if seat == submitter else "issue2theyget"
    try:
        return sum(worth[issue] * int(count) for issue, count in deal["task_data"][side].items())
    except (KeyError, ValueError, TypeError):
        raise CalibrationSetError(
            f"{where}: Submit-Deal task_data.{side} must map issues to counts"
        ) from None


def outcome(logs: list[dict[str, Any]], info: dict[str, Any], where: str) -> Outcome:
    """Who got how many points, from the deal actions and the rules."""
    last_deal: dict[str, Any] | None = None
    for event in logs:
        if event.get("text") == "Walk-Away":
            return Outcome(False, str(event.get("id")), {seat: WALK_AWAY_POINTS for seat in info})
        if event.get("text") == "Submit-Deal":
            last_deal = event
        if event.get("text") == "Accept-Deal" and last_deal is not None:
            submitter = str(last_deal.get("id"))
            points = {
                s: deal_points(last_deal, submitter, s, priorities(p, where), where)
                for s, p in info.items()
            }
            return Outcome(True, None, points)
    return Outcome(False, None, {seat: 0 for seat in info})


def transcript_events(logs: list[dict[str, Any]], info: dict[str, Any]) -> list[dict[str, Any]]:
    """Turn 0: each side's private priorities (system events); then one event per chat log entry."""
    events: list[dict[str, Any]] = []
    for seat, participant in sorted(info.items()):
        reasons = participant.get("value2reason", {})
        parts = [
            f"{lvl} {issue} ({reasons.get(lvl, '')})"
            for lvl, issue in participant.get("value2issue", {}).items()
        ]
        content = (
            f"Private priorities of {seat} (High 5, Medium 4, Low 3 points a package): "
            + "; ".join(parts)
        )
        events.append({"turn": 0, "seat": seat, "kind": "system", "content": content})
    for turn, entry in enumerate(logs, 1):
        text, seat = str(entry.get("text", "")), str(entry.get("id"))
        fields = {"kind": "action", "name": text, "args": entry.get("task_data") or {}}
        if text not in DEAL_ACTIONS:
            fields = {"kind": "message", "content": text}
        events.append({"turn": turn, "seat": seat, **fields})
    return events


def win_conditions(result: Outcome, seats: list[str]) -> list[dict[str, Any]]:
    conditions: list[dict[str, Any]] = [
        {"id": "deal_reached", "weight": 2.0, "met": result.deal_reached}
    ]
    for seat in seats:
        share = result.points[seat] / MAX_POINTS
        points = {"id": f"{seat}.points_of_36", "seat": seat, "met": share == 1, "progress": share}
        stayed = result.walked_away_by != seat
        conditions += [points, {"id": f"{seat}.stayed_at_table", "seat": seat, "met": stayed}]
    return conditions


def casino_run(dialogue: dict[str, Any], where: str) -> tuple[Run, Outcome]:
    try:
        dialogue_id, logs, info = (
            dialogue[k] for k in ("dialogue_id", "chat_logs", "participant_info")
        )
    except (KeyError, TypeError):
        raise CalibrationSetError(
            f"{where}: expected dialogue_id, chat_logs and participant_info"
        ) from None
    if len(info) != 2:
        raise CalibrationSetError(f"{where}: expected two participants, found {len(info)}")
    result = outcome(logs, info, where)
    seats = sorted(info)
    raw = {
        "run_id": f"casino-{dialogue_id}",
        "scenario_id": "casino-campsite-negotiation",
        "seats": [
            {"seat": s, "agent_id": f"casino-{dialogue_id}-{s}", "scored": True} for s in seats
        ],
        "transcript": transcript_events(logs, info),
        "win_conditions": win_conditions(result, seats),
    }
    try:
        return parse_run(raw, source=where), result
    except RunFormatError as exc:
        raise CalibrationSetError(str(exc)) from None


def casino_labels(
    manifest: CalibrationManifest, run: Run, info: dict[str, Any], where: str
) -> list[HumanLabel]:
    """Each seat's own satisfaction, and how much the OTHER participant liked it; a rater is the
    participant behind a seat, named by that seat's agent id."""
    satisfaction, likeness = manifest.label("satisfaction"), manifest.label("opponent_likeness")
    labels: list[HumanLabel] = []
    seats = sorted(info)
    for seat, other in zip(seats, reversed(seats), strict=True):
        try:
            own = info[seat]["outcomes"]["satisfaction"]
            theirs = info[other]["outcomes"]["opponent_likeness"]
        except (KeyError, TypeError):
            raise CalibrationSetError(
                f"{where}: participant outcomes need satisfaction and opponent_likeness"
            ) from None
        for spec, group, rater, raw in (
            (satisfaction, "self", seat, own),
            (likeness, "opponent", other, theirs),
        ):
            score = spec.scale.score(raw)
            rater_id = run.agent_of(rater)
            labels.append(
                HumanLabel(
                    seat=seat, label=spec.name, group=group, rater=rater_id, raw=raw, score=score
                )
            )
    return labels


def casino_items(
    manifest: CalibrationManifest, dialogues: list[Any], *, source: str
) -> list[CalibrationItem]:
    items = []
    for n, dialogue in enumerate(dialogues):
        where = f"{source} dialogue #{n}"
        run, _ = casino_run(dialogue, where)
        labels = casino_labels(manifest, run, dialogue["participant_info"], where)
        items.append(CalibrationItem(item_id=run.run_id, run=run, labels=labels))
    return items


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
        data = read_set_json(file)
        if not isinstance(data, list):
            raise CalibrationSetError(
                f"{file}: expected a list of CaSiNo dialogues, got {type(data).__name__}"
            )
        items.extend(casino_items(manifest, data, source=str(file)))
    return items


IMPORTER = SetImporter(
    name="casino",
    summary="CaSiNo: campsite negotiations with the participants' own ratings",
    read=import_casino,
)
