"""Benchmark: the shipped transcript-first prompt layout against a rubric-first layout,
and the shipped run against a tight lower bound.

Scores one run whose transcript is at least 3,000 tokens on all 12 traits x 5 passes with
the embedded SmolLM2 judge, through the real pipeline (runner -> embedded batch decoder ->
llama.cpp), once per layout, in the same process. Then measures the tight lower bound
straight on llama.cpp, on the decoder's own context:

    one prefill of the shared prefix
  + one prefill of each trait's suffix
  + every reply token of the shipped run, decoded at the measured single-sequence rate

Prints every time, the speedup, and the ratio to the bound. Last line:
``speedup_vs_rubric_first=<x> ratio_to_tight_bound=<y>``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.core.domain.run import Run
from judge.engine.judging.batch_decode import LlamaBatchContext, PromptTokens, SeqToken
from judge.engine.judging.prompt import judge_messages, rubric_block, transcript_block
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL, embedded_model
from judge.engine.judging.runner import RunnerConfig
from judge.engine.packs import RubricSet, default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run
from judge.engine.settings import judging_environment

ITEMS = ["lamp", "rug", "kettle", "clock", "mirror", "chair", "vase", "lantern"]


def long_run(min_tokens: int) -> Run:
    """A deterministic haggling episode, grown until its transcript block has min_tokens."""
    rng = random.Random(7)
    events: list[dict[str, object]] = []
    model = embedded_model(judging_environment())
    turn = 0
    while True:
        turn += 1
        item, price = rng.choice(ITEMS), rng.randint(20, 120)
        events += [
            {
                "turn": turn,
                "seat": "seller",
                "kind": "message",
                "content": f"The {item} is {price} coins. It is hand made and I will not find another buyer who appreciates it like you.",
            },
            {
                "turn": turn,
                "seat": "buyer",
                "kind": "message",
                "content": f"I like the {item}, but {price} is above my budget for today. Would you take {price * 2 // 3} if I pay now?",
            },
            {
                "turn": turn,
                "seat": "buyer",
                "kind": "action",
                "name": "offer",
                "args": {"item": item, "price": price * 2 // 3},
                "status": "ok",
            },
        ]
        run = Run.model_validate(
            {
                "run_id": "bench-long",
                "scenario_id": "market-haggle",
                "seed": 1,
                "seats": [
                    {"seat": "buyer", "agent_id": "a"},
                    {"seat": "seller", "agent_id": "h", "scored": False},
                ],
                "transcript": events,
            }
        )
        n = len(
            model.llm.tokenize(transcript_block(run.transcript, "buyer").encode(), add_bos=False)
        )
        if n >= min_tokens:
            return run


class Timed(NamedTuple):
    seconds: float
    reply_tokens: int


def timed_score(run: Run, layout: str, rubrics: RubricSet) -> Timed:
    embedded_model().decoder._held = None  # start from an empty cache
    options = ScoringOptions(judge_model=EMBEDDED_MODEL, runner=RunnerConfig(layout=layout))  # type: ignore[arg-type]
    started = time.perf_counter()
    card = score_run(run, options=options, rubrics=rubrics)
    elapsed = time.perf_counter() - started
    results = [
        t
        for seat in card.seats.values()
        for t in [*seat.traits.values(), *(seat.safety_block or {}).values()]
    ]
    n = sum(t.n_passes for t in results)
    tokens = sum(p.completion_tokens or 0 for t in results for p in t.passes)
    print(f"{layout:>16}: {elapsed:7.1f} s for {n} passes ({tokens:,} reply tokens)", flush=True)
    return Timed(elapsed, tokens)


def tight_bound(run: Run, rubrics: RubricSet, reply_tokens: int) -> float:
    """Prefix prefill + each suffix's prefill + reply_tokens at the single-sequence decode rate."""
    model = embedded_model()
    shared = transcript_block(run.transcript, "buyer")
    prompts = [
        model.split_prompt(judge_messages(shared, rubric_block(r, "buyer")))
        for r in rubrics.rubrics.values()
    ]
    prefix = prompts[0].prefix
    ctx = model.decoder._context_for(len(prefix) + 2 * (max(len(p.rest) for p in prompts) + 200), 3)
    model.decoder._held = None
    ctx.clear()
    t_prefix = _timed(lambda: _prefill(ctx, prefix, 0, 0))
    t_suffix = 0.0
    for p in prompts:
        ctx.copy_seq(0, 1)
        t_suffix += _timed(lambda p=p: _prefill(ctx, p.rest, len(prefix), 1))
        ctx.drop_seq(1)
    rate = _single_decode_rate(ctx, prompts[0], len(prefix))
    decode = reply_tokens / rate
    total = t_prefix + t_suffix + decode
    print(
        f"{'tight bound':>16}: {total:7.1f} s = prefix prefill {t_prefix:.1f} s ({len(prefix):,} tokens) "
        f"+ {len(prompts)} suffix prefills {t_suffix:.1f} s ({sum(len(p.rest) for p in prompts):,} tokens) "
        f"+ {reply_tokens:,} reply tokens at {rate:.1f} tokens/s single-sequence = {decode:.1f} s",
        flush=True,
    )
    return total


def _timed(work: Any) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _prefill(ctx: LlamaBatchContext, tokens: tuple[int, ...], start: int, seq: int) -> None:
    items = [SeqToken(t, start + i, seq, i == len(tokens) - 1) for i, t in enumerate(tokens)]
    for n in range(0, len(items), 512):
        ctx.decode(items[n : n + 512])


def _single_decode_rate(
    ctx: LlamaBatchContext, prompt: PromptTokens, n_prefix: int, steps: int = 64
) -> float:
    """Tokens per second decoding one sequence alone after its prompt (greedy, no grammar)."""
    ctx.copy_seq(0, 1)
    _prefill(ctx, prompt.rest, n_prefix, 1)
    pos = n_prefix + len(prompt.rest)
    token = int(ctx.logits(_last_row(prompt.rest)).argmax())
    started = time.perf_counter()
    for step in range(steps):
        ctx.decode([SeqToken(token, pos + step, 1, True)])
        token = int(ctx.logits(0).argmax())
    elapsed = time.perf_counter() - started
    ctx.drop_seq(1)
    return steps / elapsed


def _last_row(tokens: tuple[int, ...]) -> int:
    return (len(tokens) - 1) % 512


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--min-tokens", type=int, default=3000)
    parser.add_argument("--traits", type=int, default=12, help="first N traits only (smoke runs)")
    parser.add_argument(
        "--skip-rubric-first", action="store_true", help="skip the slow rubric-first run"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="one trait, a short run, no rubric-first run (CI)"
    )
    args = parser.parse_args()
    if args.smoke:  # the bench measures the embedded judge: its smoke uses it, briefly
        args.traits, args.min_tokens, args.skip_rubric_first = 1, 300, True
    rubrics = default_rubric_set()
    rubrics = rubrics.select(list(rubrics.rubrics)[: args.traits])
    run = long_run(args.min_tokens)
    passes = ScoringOptions().settings.denoise.passes
    print(
        f"run: {len(run.transcript)} events, {len(rubrics.rubrics)} traits x {passes} passes, "
        f"judge {EMBEDDED_MODEL}, {embedded_model().decoder.n_threads} thread(s), "
        f"batch width {embedded_model().decoder.width}",
        flush=True,
    )
    shipped = timed_score(run, "transcript_first", rubrics)
    bound = tight_bound(run, rubrics, shipped.reply_tokens)
    rubric_first = timed_score(run, "rubric_first", rubrics) if not args.skip_rubric_first else None
    speedup = f"{rubric_first.seconds / shipped.seconds:.2f}" if rubric_first else "not-run"
    print(f"speedup_vs_rubric_first={speedup} ratio_to_tight_bound={shipped.seconds / bound:.2f}")


if __name__ == "__main__":
    main()
