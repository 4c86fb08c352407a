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
