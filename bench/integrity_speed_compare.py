"""Benchmark: the integrity scan's speed before and after a change, in one run
(docs/integrity.md#measured-rates): an earlier checkout of the repository (``--old``, e.g.
``git archive <commit> judge | tar -x -C /tmp/old``) and this one scan the CaSiNo test runs in
turn, a fresh process each, ``--rounds`` times, so a machine loaded by other work slows both
alike; the ratio of the medians is the figure to read.

Each process scans every run once (warming caches), then round and round for ``--seconds`` of
CPU with the whole detector (rules and learned layer), then as long with the rules alone.
Writes ``reports/integrity/speed.md`` with ``--write``. Last line:
``old_runs_per_s=<x> new_runs_per_s=<x> ratio=<x> old_rules_per_s=<x> new_rules_per_s=<x>
rules_ratio=<x>``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: What each process runs, from the root of its checkout.
_PROBE = """
import json, sys, time
sys.path.insert(0, ".")
from pathlib import Path
from judge.core.integrity import learned, scan_run
from judge.tools.importers.casino import casino_run
data = Path(sys.argv[1])
dialogues = json.loads((data / "casino" / "casino_test.json").read_text())
runs = [casino_run(d, f"casino_test[{i}]")[0] for i, d in enumerate(dialogues)]
seconds = float(sys.argv[2])
def rate():
    started, done = time.process_time(), 0
    while done == 0 or time.process_time() - started < seconds:
        for run in runs:
            scan_run(run)
        done += len(runs)
    return done / (time.process_time() - started)
for run in runs:
    scan_run(run)
whole = rate()
with learned.using(None):
    rules = rate()
print(json.dumps([len(runs), whole, rules]))
"""


def measure(root: Path, data: Path, seconds: float) -> tuple[int, float, float]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(data), str(seconds)],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    runs, whole, rules = json.loads(out.strip().splitlines()[-1])
    return int(runs), float(whole), float(rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", type=Path, help="root of the earlier checkout")
    parser.add_argument("--label", default="before", help="what the earlier checkout is")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                        help="folder holding casino/ as published")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--write", action="store_true", help="write reports/integrity/speed.md")
    parser.add_argument("--smoke", action="store_true",
                        help="this checkout against itself, one short round, nothing written (CI)")  # fmt: skip
    args = parser.parse_args()
    if args.smoke:
        args.old, args.rounds, args.seconds, args.write = args.old or REPO, 1, 0.05, False
    if args.old is None:
        parser.error("--old is required (or --smoke)")
    rows: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    count = 0
    for _ in range(args.rounds):
        for side, root in (("old", args.old), ("new", REPO)):
            count, whole, rules = measure(root, args.data, args.seconds)
            rows[side].append((whole, rules))
            print(f"{side}: {whole:,.0f} runs per CPU second, rules alone {rules:,.0f}")
    old = statistics.median(w for w, _ in rows["old"])
    new = statistics.median(w for w, _ in rows["new"])
    old_rules = statistics.median(r for _, r in rows["old"])
    new_rules = statistics.median(r for _, r in rows["new"])
    lines = [
        "# Integrity scan speed, before and after, measured in one run",
        "",
        (
            f"`python bench/integrity_speed_compare.py --old <{args.label}> --rounds {args.rounds} "
            f"--seconds {args.seconds:g} --write`: the {count} CaSiNo test runs scanned in turn by "
            f"the earlier checkout ({args.label}) and this one, a fresh process each, "
            f"{args.rounds} rounds, {args.seconds:g} CPU seconds per figure (CPU time of the "
            "process, on two cores shared with other work: the ratio is the figure to read)."
        ),
        "",
        (
            "| round | before, whole detector | after, whole detector | before, rules alone | "
            "after, rules alone |"
        ),
        "|---|---|---|---|---|",
        *(
            f"| {i} | {o[0]:,.0f} | {n[0]:,.0f} | {o[1]:,.0f} | {n[1]:,.0f} |"
            for i, (o, n) in enumerate(zip(rows["old"], rows["new"], strict=True), 1)
        ),
        f"| median | {old:,.0f} | {new:,.0f} | {old_rules:,.0f} | {new_rules:,.0f} |",
        "",
        (
            f"Runs per CPU second, whole detector: {new / old:.2f} times as many; rules alone: "
            f"{new_rules / old_rules:.2f} times. Per run, whole detector: {1000 / old:.2f} ms "
            f"before, {1000 / new:.2f} ms after."
        ),
        "",
    ]
    if args.write:
        (REPO / "reports" / "integrity" / "speed.md").write_text("\n".join(lines))
    print(
        f"old_runs_per_s={old:.0f} new_runs_per_s={new:.0f} ratio={new / old:.2f} "
        f"old_rules_per_s={old_rules:.0f} new_rules_per_s={new_rules:.0f} "
        f"rules_ratio={new_rules / old_rules:.2f}"
    )


if __name__ == "__main__":
    main()
