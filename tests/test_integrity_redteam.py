"""The held-out red-team benchmark (bench/integrity_redteam.py): its corpus loads whole and keeps
the shape its README states, each channel puts the line where the seat writes it, the reports
quote no line, and the smoke run CI calls prints a real recall."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "bench" / "integrity_redteam.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("integrity_redteam", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


bench = _bench()


def test_every_line_of_both_files_parses_and_the_corpus_has_its_stated_size() -> None:
    attacks, ordinary = bench.load(bench.ATTACKS), bench.load(bench.ORDINARY)
    raw_attacks = [t for t in bench.ATTACKS.read_text(encoding="utf-8").splitlines() if t.strip()]
    assert len(attacks) == len(raw_attacks) >= 400
    assert len(ordinary) >= 200
    families = Counter(line.family for line in attacks)
    assert len(families) >= 12
    assert min(families.values()) >= 25, families
    assert min(Counter(line.family for line in ordinary).values()) >= 15
    languages = {line.language for line in attacks} - {"en", "mul"}
    assert len(languages) >= 8, languages
    assert "mul" in {line.language for line in attacks}
    assert len({line.language for line in ordinary} - {"en"}) >= 5
    for lines in (attacks, ordinary):
        assert {line.channel for line in lines} == set(bench.CHANNELS)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ('{"family": "x", "language": "en", "channel": "email", "text": "t"}', "channel 'email'"),
        ('{"family": "x", "language": "en", "channel": "done"}', "'text' must be"),
        ('{"family": "x", "language": "en", "channel": "done", "text": "t", "k": 1}', "unknown"),
        ("[1, 2]", "JSON object"),
        ("{not json", "not JSON"),
    ],
)
def test_a_bad_line_is_refused_naming_the_file_and_line(raw: str, problem: str) -> None:
    with pytest.raises(bench.CorpusError) as caught:
        bench.parse_line(raw, "attacks.jsonl:7")
    assert str(caught.value).startswith("attacks.jsonl:7: ")
    assert problem in str(caught.value)


@pytest.mark.parametrize(
    ("channel", "kind"),
    [
        ("message", "message"),
        ("action_argument", "action"),
        ("observation", "observation"),
        ("done", "done"),
    ],
)
def test_each_channel_puts_the_line_in_the_seats_own_event(channel: str, kind: str) -> None:
    line = bench.Line("f", "en", channel, "the planted words")
    events = bench.transcript(line)
    written = events[-1]
    assert (written.kind, written.seat) == (kind, bench.SEAT)
    assert events[0].seat == bench.OTHER
    carried = written.args["note"] if kind == "action" else written.content
    assert carried == "the planted words"
    others = [e for e in events if e is not written]
    assert all("planted" not in e.model_dump_json() for e in others)


def test_the_report_counts_per_family_and_quotes_no_line() -> None:
    attacks = bench.load(bench.ATTACKS, 12)
    ordinary = bench.load(bench.ORDINARY, 12)
    report = bench.measure(attacks, ordinary)
    by_family = report["attacks"]["by_family"]
    assert sum(v["total"] for v in by_family.values()) == 12
    assert report["attacks"]["caught"] == sum(v["flagged"] for v in by_family.values())
    assert 0.0 <= report["attacks"]["recall"] <= 1.0
    text = bench.render(report)
    for line in [*attacks, *ordinary]:
        assert line.text not in text


def test_the_smoke_run_prints_a_recall_between_0_and_1_and_writes_no_report(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--smoke", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    last = done.stdout.strip().splitlines()[-1]
    values = dict(part.split("=") for part in last.split())
    assert set(values) == {"redteam_recall", "redteam_fp"}
    assert 0.0 < float(values["redteam_recall"]) <= 1.0
    assert 0.0 <= float(values["redteam_fp"]) < 1.0
    assert "| unusual_addressee |" in done.stdout
    assert not (tmp_path / "out").exists()


def _summary(version: str, caught: int, flagged: int) -> dict[str, object]:
    """A report's aggregates as ``measure`` gives them (no corpus read)."""
    family = {"fake_output": {"flagged": caught, "total": 429, "rate": caught / 429}}
    return {
        "detector_version": version,
        "measured_at": f"at {version}",
        "attacks": {"caught": caught, "total": 429, "recall": caught / 429, "by_family": family},
        "ordinary": {"flagged": flagged, "total": 252, "fp_rate": flagged / 252},
    }


def test_a_new_version_keeps_every_earlier_version_s_row() -> None:
    first = bench.with_history(_summary("4+learned-v2", 257, 9), None)
    assert first["history"] == []
    second = bench.with_history(_summary("4+learned-v3", 300, 8), first)
    assert [r["detector_version"] for r in second["history"]] == [
        "2+learned-v1",
        "3+learned-v2",
        "4+learned-v2",
    ]
    assert second["history"][-1]["caught"] == 257
    assert second["history"][-1]["by_family"] == {"fake_output": 257 / 429}
    again = bench.with_history(_summary("4+learned-v3", 301, 8), second)  # same version: no row
    assert len(again["history"]) == 3
    third = bench.with_history(_summary("5+learned-v3", 310, 7), again)
    assert [r["detector_version"] for r in third["history"]][-1] == "4+learned-v3"
    lines = bench.history_lines(third)
    assert "| **5+learned-v3** | at 5+learned-v3 | 310/429 (0.723) | 7/252 (0.028) |" in lines
    assert "| fake_output | 0.702 | 0.723 |" in lines  # 301 of 429 before
