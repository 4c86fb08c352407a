"""Benchmark: decode tokens per judge pass with the embedded SmolLM2 judge.

Builds every trait's request for every scored seat of a few CaSiNo dialogues (read in place
from ``--data``) and of ``examples/haggle.json`` through the runner's own ``pass_specs``, one
pass per trait (the embedded judge decodes greedily at temperature 0, so the passes of one
trait decode the same reply), and decodes them with the embedded batch decoder. Prints, per
source, the mean decode tokens per pass, how many replies hit the reply cap, how many parsed
to a score, and the mean rationale length in words. Last line:
``decode_tokens_per_pass=<mean> capped=<n>/<passes> scored=<n>/<passes>``.

    python bench/verdict_length.py --data /work/shared/data/casino/casino_test.json --dialogues 3
    python bench/verdict_length.py --smoke   # CI: two traits of the example run
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.core.domain.run import Run, parse_run
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL, EmbeddedBackend
from judge.engine.judging.runner import RunnerConfig, pass_specs
from judge.engine.judging.verdict import parse_verdict
from judge.engine.packs import default_rubric_set
from judge.engine.settings import judging_environment
from judge.tools.importers.casino import casino_run

REPO = Path(__file__).resolve().parents[1]


def sources(data: Path | None, dialogues: int) -> list[tuple[str, Run]]:
    runs = [("haggle", parse_run(json.loads((REPO / "examples/haggle.json").read_text())))]
    if data is not None:
        for n, dialogue in enumerate(json.loads(data.read_text())[:dialogues]):
            runs.append((f"casino-{n}", casino_run(dialogue, f"{data.name}[{n}]")[0]))
    return runs


async def measure(
    run: Run, backend: EmbeddedBackend, config: RunnerConfig, *, traits: int | None = None
) -> list[dict[str, object]]:
    rubrics = list(default_rubric_set().rubrics.values())[:traits]
    turns = {e.turn for e in run.transcript}
    rows: list[dict[str, object]] = []
    for seat in (s.seat for s in run.seats if s.scored):
        specs = pass_specs(run.transcript, seat, rubrics, 1, config)
        async for item in backend.complete_batch([s.request for s in specs]):
            reply = item.reply
            verdict = parse_verdict(reply.text, turns)
            rows.append(
                {
                    "trait": specs[item.position].trait,
                    "decode_tokens": reply.completion_tokens,
                    "capped": (reply.completion_tokens or 0) >= config.max_tokens,
                    "scored": verdict.score is not None,
                    "words": len(verdict.rationale.split()),
                    "text": reply.text,
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=None, help="a CaSiNo split (read in place)")
    parser.add_argument("--dialogues", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=160)
    parser.add_argument("--out", type=Path, default=None, help="write every reply here (jsonl)")
    parser.add_argument(
        "--smoke", action="store_true", help="CI: two traits of examples/haggle.json, no data"
    )
    args = parser.parse_args()
    if args.smoke:
        args.data = None
    backend = EmbeddedBackend(EMBEDDED_MODEL, env=judging_environment())
    config = RunnerConfig(max_tokens=args.max_tokens)
    every: list[dict[str, object]] = []
    for name, run in sources(args.data, args.dialogues):
        start = time.perf_counter()
        rows = asyncio.run(measure(run, backend, config, traits=2 if args.smoke else None))
        every += [{"source": name, **r} for r in rows]
        mean = sum(int(r["decode_tokens"] or 0) for r in rows) / len(rows)
        print(
            f"{name}: passes={len(rows)} decode_tokens_per_pass={mean:.1f} "
            f"capped={sum(bool(r['capped']) for r in rows)} scored={sum(bool(r['scored']) for r in rows)} "
            f"rationale_words={sum(int(r['words']) for r in rows) / len(rows):.1f} "
            f"wall_s={time.perf_counter() - start:.0f}",
            flush=True,
        )
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in every))
    total = len(every)
    mean = sum(int(r["decode_tokens"] or 0) for r in every) / total
    print(
        f"decode_tokens_per_pass={mean:.1f} capped={sum(bool(r['capped']) for r in every)}/{total} "
        f"scored={sum(bool(r['scored']) for r in every)}/{total}"
    )


if __name__ == "__main__":
    main()
