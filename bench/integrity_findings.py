"""Check: the detector's findings over a large varied set, written one line per scanned item,
with one digest of them all (docs/integrity.md#linear-time-matching). A change that only
makes the scan faster must leave the digest as it was: write the lines before the change,
then run again with ``--against`` the old file; every item whose findings differ is named.

The set: every CaSiNo run of ``--data`` (test and valid, every scored seat), every DICES-350
conversation (its user and LaMDA seats), the generated corpora of ``bench/integrity_corpus``
(judge-directed lines of every family and language, hard ordinary lines, indirect requests,
noise), the tests' attacks and ordinary lines (written, generated, fresh) and hostile bodies
of 64 KiB. Each item's findings are the detector's whole answer (``SeatTamper`` as JSON).
Last line: ``items=<n> flagged=<n> digest=<sha256>`` (and ``differing=<n>`` with
``--against``).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.integrity_corpus.families import noise
from bench.integrity_corpus.generator import hard_lines, indirect_english, judge_directed
from bench.integrity_rates import casino_runs, dices_seats, said, seat_events
from bench.integrity_speed import hostile_bodies
from judge.core.domain.integrity import SeatTamper
from judge.core.domain.run import TranscriptEvent
from judge.core.integrity import scan_run, scan_seat
from tests.core.integrity.corpus import negatives, positives
from tests.core.integrity.families import FRESH_ATTACKS, FRESH_NEGATIVES, attacks, hard_negatives

REPO = Path(__file__).resolve().parents[1]

_Item = tuple[str, dict[str, SeatTamper]]


def _seat(key: str, transcript: list[TranscriptEvent]) -> _Item:
    return key, {"seat": scan_seat(transcript, "seat")}


def items(data: Path) -> Iterator[_Item]:
    """Every item of the set and the detector's answer for it, in a fixed order."""
    if (data / "casino").is_dir():
        for name, run in casino_runs(data):
            yield f"{name}:{run.run_id}", scan_run(run)
    if (data / "dices").is_dir():
        for item_id, transcript in dices_seats(data).items():
            found = {seat: scan_seat(transcript, seat) for seat in ("user", "bot")}
            yield f"dices:{item_id}", found
    for index, line in enumerate(judge_directed(6000, 11)):
        yield _seat(f"generated:{index}:{line.family}:{line.language}", said([line.text]))
    for index, line in enumerate(hard_lines(12)):
        yield _seat(f"hard:{index}", said([line.text]))
    for index, text in enumerate(indirect_english(400, 13)):
        yield _seat(f"indirect:{index}", said([text]))
    for index, text in enumerate(noise(400, 14)):
        yield _seat(f"noise:{index}", said([text]))
    for index, attack in enumerate(positives()):
        yield _seat(f"positive:{index}", said(attack.messages))
    for index, text in enumerate([*negatives(), *hard_negatives(), *FRESH_NEGATIVES]):
        yield _seat(f"negative:{index}", said([text]))
    for index, generated in enumerate(attacks()):
        yield _seat(f"attack:{index}", seat_events(generated.events))
    for index, (_, events) in enumerate(FRESH_ATTACKS):
        yield _seat(f"fresh:{index}", seat_events(events))
    for name, body in hostile_bodies(64 * 1024).items():
        body = body[: 64 * 1024]
        pieces = [body[i : i + 8_000] for i in range(0, len(body), 8_000)]
        yield _seat(f"hostile:{name}", said(pieces))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                        help="folder holding casino/ and dices/ as published (optional)")  # fmt: skip
    parser.add_argument("--out", type=Path, help="where to write the lines")
    parser.add_argument("--against", type=Path, help="lines written before, to compare with")
    parser.add_argument("--smoke", action="store_true",
                        help="the first 200 items into a temporary file (CI)")  # fmt: skip
    args = parser.parse_args()
    if args.out is None and not args.smoke:
        parser.error("--out is required (or --smoke)")
    if args.out is None:
        args.out = Path(tempfile.mkdtemp(prefix="findings-")) / "findings.jsonl"
    digest = hashlib.sha256()
    count = flagged = 0
    with args.out.open("w") as out:
        for key, found in itertools.islice(items(args.data), 200 if args.smoke else None):
            answer = {seat: tamper.model_dump(mode="json") for seat, tamper in found.items()}
            line = json.dumps([key, answer], sort_keys=True, ensure_ascii=False)
            out.write(line + "\n")
            digest.update(line.encode("utf-8", "surrogatepass") + b"\n")
            count += 1
            flagged += any(t.flagged for t in found.values())
    summary = f"items={count} flagged={flagged} digest={digest.hexdigest()}"
    if args.against is not None:
        old = args.against.read_text().splitlines()
        new = args.out.read_text().splitlines()
        differing = [json.loads(a)[0] for a, b in zip(old, new, strict=False) if a != b]
        differing += ["(item count)"] * (len(old) != len(new))
        for key in differing[:20]:
            print(f"differs: {key}")
        summary += f" differing={len(differing)}"
        print(summary)
        sys.exit(1 if differing else 0)
    print(summary)


if __name__ == "__main__":
    main()
