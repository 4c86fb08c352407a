"""The written test corpus: judge-directed messages by family, and ordinary talk.

``positives.json`` holds one entry per attack (a family and the seat's consecutive
messages); ``negatives.txt`` one ordinary message a line. ``bench/integrity_rates.py`` reads
the same files for the published rates (docs/integrity.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
#: Families whose every entry must be reported with this kind (how it was hidden).
TRICK_KINDS = {"unicode": "obfuscated", "spacing": "obfuscated", "leetspeak": "obfuscated",
               "split": "split", "encoded": "encoded"}  # fmt: skip


class Positive(NamedTuple):
    family: str
    messages: list[str]


def positives() -> list[Positive]:
    entries = json.loads((HERE / "positives.json").read_text(encoding="utf-8"))
    return [Positive(e["family"], e["messages"]) for e in entries]


def negatives() -> list[str]:
    lines = (HERE / "negatives.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]
