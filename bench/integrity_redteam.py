"""Benchmark: the integrity detector on the held-out red-team corpus (bench/integrity_redteam/).

The corpus was written blind to the detector and is never tuned on (its README says why). For
each line a minimal run transcript is built in which one seat writes the line in the line's
channel: a message, the value of an action's argument, an observation of the seat's tool call,
or the content of its ``done`` event. The line counts as caught when ``scan_seat`` flags the
seat or gives it any finding.

Prints recall per family, language and channel, overall recall, and the false-positive rate on
the ordinary lines per family, language and channel; writes ``reports/integrity/redteam.json``
and ``redteam.md`` (aggregates only: the reports quote no line, so reading them teaches the
detector's authors nothing about the corpus). ``--smoke``: the first 20 lines of each file, no
report. Last line: ``redteam_recall=<x> redteam_fp=<y>``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.core.domain.run import (
    ActionEvent,
    DoneEvent,
    MessageEvent,
    ObservationEvent,
    TranscriptEvent,
)
from judge.core.integrity import DETECTOR_VERSION, scan_seat

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "bench" / "integrity_redteam"
ATTACKS = CORPUS / "attacks.jsonl"
ORDINARY = CORPUS / "ordinary.jsonl"
CHANNELS = ("message", "action_argument", "observation", "done")
FIELDS = ("family", "language", "channel", "text")
SMOKE_LINES = 20
#: The seat that writes each line, and the other party it talks to.
SEAT = "agent"
OTHER = "customer"


class CorpusError(ValueError):
    """A corpus line that is not what the README says a line is."""


@dataclass(frozen=True)
class Line:
    family: str
    language: str
    channel: str
    text: str


def parse_line(raw: str, where: str) -> Line:
    """One corpus line, or CorpusError naming the file, the line and the problem."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CorpusError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(value, dict):
        raise CorpusError(f"{where}: a line must be a JSON object")
    extra = sorted(set(value) - set(FIELDS))
    if extra:
        raise CorpusError(f"{where}: unknown fields {extra}")
    for field in FIELDS:
        if not isinstance(value.get(field), str) or not value[field].strip():
            raise CorpusError(f"{where}: {field!r} must be a non-empty string")
    if value["channel"] not in CHANNELS:
        raise CorpusError(f"{where}: channel {value['channel']!r} is not one of {CHANNELS}")
    return Line(value["family"], value["language"], value["channel"], value["text"])


def load(path: Path, limit: int | None = None) -> list[Line]:
    """The lines of one corpus file (the first ``limit`` when given)."""
    lines: list[Line] = []
    with path.open(encoding="utf-8") as handle:
        for number, raw in enumerate(handle, 1):
            if limit is not None and len(lines) >= limit:
                break
            if raw.strip():
                lines.append(parse_line(raw, f"{path.name}:{number}"))
    return lines


def transcript(line: Line) -> list[TranscriptEvent]:
    """A minimal run in which the seat writes ``line.text`` in its channel."""
    opening = MessageEvent(
        kind="message", turn=1, seat=OTHER, content="Hi, how can we sort this out?"
    )
    written: list[TranscriptEvent]
    if line.channel == "message":
        written = [MessageEvent(kind="message", turn=2, seat=SEAT, content=line.text)]
    elif line.channel == "action_argument":
        written = [
            ActionEvent(
                kind="action",
                turn=2,
                seat=SEAT,
                name="send_note",
                args={"note": line.text},
                result={"ok": True},
            )
        ]
    elif line.channel == "observation":
        written = [
            ActionEvent(kind="action", turn=2, seat=SEAT, name="lookup", args={"query": "4471"}),
            ObservationEvent(kind="observation", turn=2, seat=SEAT, content=line.text),
        ]
    else:
        written = [DoneEvent(kind="done", turn=2, seat=SEAT, content=line.text)]
    return [opening, *written]


def caught(line: Line) -> bool:
    found = scan_seat(transcript(line), SEAT)
    return found.flagged or bool(found.findings)


def rates(rows: Iterable[tuple[Line, bool]], key: str) -> dict[str, dict[str, Any]]:
    """Per value of ``key``: how many lines were flagged, of how many, and the rate."""
    hit: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for line, flagged in rows:
        name = getattr(line, key)
        total[name] += 1
        hit[name] += flagged
    return {
        name: {
            "flagged": hit[name],
            "total": total[name],
            "rate": round(hit[name] / total[name], 4),
        }
        for name in sorted(total)
    }


def measure(attacks: list[Line], ordinary: list[Line]) -> dict[str, Any]:
    started = time.process_time()
    attack_rows = [(line, caught(line)) for line in attacks]
    ordinary_rows = [(line, caught(line)) for line in ordinary]
    cpu = time.process_time() - started
    found = sum(flagged for _, flagged in attack_rows)
    false = sum(flagged for _, flagged in ordinary_rows)
    return {
        "detector_version": DETECTOR_VERSION,
        "measured_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "attacks": {
            "caught": found,
            "total": len(attacks),
            "recall": round(found / len(attacks), 4) if attacks else 0.0,
            "by_family": rates(attack_rows, "family"),
            "by_language": rates(attack_rows, "language"),
            "by_channel": rates(attack_rows, "channel"),
        },
        "ordinary": {
            "flagged": false,
            "total": len(ordinary),
            "fp_rate": round(false / len(ordinary), 4) if ordinary else 0.0,
            "by_family": rates(ordinary_rows, "family"),
            "by_language": rates(ordinary_rows, "language"),
            "by_channel": rates(ordinary_rows, "channel"),
        },
        "scan_cpu_s": round(cpu, 3),
    }


def table(title: str, column: str, by: dict[str, dict[str, Any]]) -> list[str]:
    out = [f"### {title}", "", f"| {column} | flagged | total | rate |", "|---|---:|---:|---:|"]
    out += [f"| {k} | {v['flagged']} | {v['total']} | {v['rate']:.3f} |" for k, v in by.items()]
    return [*out, ""]


#: Versions measured before this report kept its history (docs/integrity.md): version,
#: attacks caught, ordinary lines flagged (of 429 and 252).
EARLIER = (("2+learned-v1", 245, 21), ("3+learned-v2", 252, 9))


def with_history(report: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    """The report with the history of every version measured before it: the previous
    report's history, plus the previous report itself when its version differs."""
    history: list[dict[str, Any]] = []
    if previous is not None:
        history = list(previous.get("history") or [
            {"detector_version": v, "measured_at": None, "caught": c, "attacks": 429,
             "flagged": f, "ordinary": 252, "by_family": None} for v, c, f in EARLIER
        ])  # fmt: skip
        if previous["detector_version"] != report["detector_version"]:
            history.append({
                "detector_version": previous["detector_version"],
                "measured_at": previous["measured_at"],
                "caught": previous["attacks"]["caught"], "attacks": previous["attacks"]["total"],
                "flagged": previous["ordinary"]["flagged"], "ordinary": previous["ordinary"]["total"],
                "by_family": {k: v["rate"] for k, v in previous["attacks"]["by_family"].items()},
            })  # fmt: skip
    return {**report, "history": history}


def history_lines(report: dict[str, Any]) -> list[str]:
    """Every version measured, this one last, and each family's recall against the last one
    measured before it."""
    rows = report.get("history") or []
    if not rows:
        return []
    a, o = report["attacks"], report["ordinary"]
    lines = ["## Every version measured", "", "| detector | measured | recall | false positives |",
             "|---|---|---|---|"]  # fmt: skip
    for r in rows:
        lines.append(f"| {r['detector_version']} | {r['measured_at'] or 'before this table'} | "
                     f"{r['caught']}/{r['attacks']} ({r['caught'] / r['attacks']:.3f}) | "
                     f"{r['flagged']}/{r['ordinary']} ({r['flagged'] / r['ordinary']:.3f}) |")  # fmt: skip
    lines.append(f"| **{report['detector_version']}** | {report['measured_at']} | "
                 f"{a['caught']}/{a['total']} ({a['recall']:.3f}) | "
                 f"{o['flagged']}/{o['total']} ({o['fp_rate']:.3f}) |")  # fmt: skip
    before = rows[-1]
    if before.get("by_family"):
        lines += ["", (f"Recall by family, {before['detector_version']} against "
                  f"{report['detector_version']}:"), "",
                  f"| family | {before['detector_version']} | {report['detector_version']} |",
                  "|---|---:|---:|"]  # fmt: skip
        for family, now in a["by_family"].items():
            was = before["by_family"].get(family)
            lines.append(
                f"| {family} | {'' if was is None else f'{was:.3f}'} | {now['rate']:.3f} |"
            )
    return [*lines, ""]


def render(report: dict[str, Any]) -> str:
    attacks, ordinary = report["attacks"], report["ordinary"]
    lines = [
        "# Integrity detector on the held-out red-team corpus",
        "",
        (
            f"Detector {report['detector_version']}, measured {report['measured_at']} by "
            "`python bench/integrity_redteam.py` on `bench/integrity_redteam/` (written blind, "
            "frozen before the first measurement, never tuned on: see its README). Aggregates "
            "only; no line of the corpus is quoted here."
        ),
        "",
        (
            f"**Recall on attacks: {attacks['caught']} of {attacks['total']} "
            f"({attacks['recall']:.3f}).** "
            f"**False positives on ordinary lines: {ordinary['flagged']} of {ordinary['total']} "
            f"({ordinary['fp_rate']:.3f}).** Scan CPU time: {report['scan_cpu_s']} s."
        ),
        "",
        *history_lines(report),
        "## Attacks (rate = recall)",
        "",
        *table("By family", "family", attacks["by_family"]),
        *table("By language", "language", attacks["by_language"]),
        *table("By channel", "channel", attacks["by_channel"]),
        "## Ordinary lines (rate = false-positive rate)",
        "",
        *table("By family", "family", ordinary["by_family"]),
        *table("By language", "language", ordinary["by_language"]),
        *table("By channel", "channel", ordinary["by_channel"]),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "reports" / "integrity")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"the first {SMOKE_LINES} lines of each file, no report",
    )
    args = parser.parse_args(argv)
    limit = SMOKE_LINES if args.smoke else None
    report = measure(load(ATTACKS, limit), load(ORDINARY, limit))
    if not args.smoke:
        kept = args.out / "redteam.json"
        report = with_history(report, json.loads(kept.read_text()) if kept.exists() else None)
    text = render(report)
    if not args.smoke:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "redteam.json").write_text(json.dumps(report, indent=1) + "\n")
        (args.out / "redteam.md").write_text(text + "\n")
    print(text)
    print(
        f"redteam_recall={report['attacks']['recall']:.4f} "
        f"redteam_fp={report['ordinary']['fp_rate']:.4f}"
    )


if __name__ == "__main__":
    main()
