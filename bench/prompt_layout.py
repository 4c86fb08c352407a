"""Benchmark: the shipped transcript-first prompt layout against a rubric-first layout.

Scores one run whose transcript is at least 3,000 tokens on all 12 traits x 5 passes with
the embedded SmolLM2 judge, through the real pipeline (litellm -> embedded provider ->
llama.cpp), once per layout, in the same process. Then measures the lower bound directly
on the model: one prefill of the shared prefix, plus each pass's own suffix and reply.

Prints both times, the speedup, and the ratio to the lower bound. Last line:
``speedup_vs_rubric_first=<x> ratio_to_lower_bound=<y>``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.catalog import RubricSet, default_rubric_set
from judge.domain.run import Run
from judge.judging.embedded import EMBEDDED_MODEL, embedded_model
from judge.judging.prompt import VERDICT_SCHEMA, judge_messages, rubric_block, transcript_block
from judge.judging.runner import RunnerConfig
from judge.pipeline import ScoringOptions, score_run

ITEMS = ["lamp", "rug", "kettle", "clock", "mirror", "chair", "vase", "lantern"]


def long_run(min_tokens: int) -> Run:
    """A deterministic haggling episode, grown until its transcript block has min_tokens."""
    rng = random.Random(7)
    events: list[dict[str, object]] = []
    model = embedded_model()
    turn = 0
    while True:
        turn += 1
        item, price = rng.choice(ITEMS), rng.randint(20, 120)
        events += [
            {"turn": turn, "seat": "seller", "kind": "message",
             "content": f"The {item} is {price} coins. It is hand made and I will not find another buyer who appreciates it like you."},
            {"turn": turn, "seat": "buyer", "kind": "message",
             "content": f"I like the {item}, but {price} is above my budget for today. Would you take {price * 2 // 3} if I pay now?"},
            {"turn": turn, "seat": "buyer", "kind": "action", "name": "offer",
             "args": {"item": item, "price": price * 2 // 3}, "status": "ok"},
        ]
        run = Run.model_validate({
            "run_id": "bench-long", "scenario_id": "market-haggle", "seed": 1,
            "seats": [{"seat": "buyer", "agent_id": "a"}, {"seat": "seller", "agent_id": "h", "scored": False}],
            "transcript": events,
        })
        n = len(model.llm.tokenize(transcript_block(run.transcript, "buyer").encode(), add_bos=False))
        if n >= min_tokens:
            return run


def timed_score(run: Run, layout: str, rubrics: RubricSet) -> float:
    embedded_model().llm.reset()
    options = ScoringOptions(judge_model=EMBEDDED_MODEL, runner=RunnerConfig(layout=layout))  # type: ignore[arg-type]
    started = time.perf_counter()
    card = score_run(run, options=options, rubrics=rubrics)
    elapsed = time.perf_counter() - started
    n = sum(t.n_passes for seat in card.seats.values() for t in [*seat.traits.values(), *(seat.safety_block or {}).values()])
    print(f"{layout:>16}: {elapsed:7.2f} s for {n} passes", flush=True)
    return elapsed


def lower_bound(run: Run, passes: int, rubrics: RubricSet) -> float:
    """One prefill of the shared prefix + every pass's suffix and reply, straight on llama.cpp."""
    model = embedded_model()
    shared = transcript_block(run.transcript, "buyer")
    requests = [
        judge_messages(shared, rubric_block(rubric, "buyer")) for rubric in rubrics.rubrics.values()
    ]
    prefix = model.split_prompt(requests[0]).prefix
    model.llm.reset()
    started = time.perf_counter()
    model.llm.eval(prefix)
    total = time.perf_counter() - started
    for _ in range(passes):
        for messages in requests:
            started = time.perf_counter()
            model.complete(messages, max_tokens=RunnerConfig().max_tokens, schema=VERDICT_SCHEMA)
            total += time.perf_counter() - started
    print(f"{'lower bound':>16}: {total:7.2f} s (1 prefill of the {len(prefix)}-token prefix + suffixes and replies)",
          flush=True)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--min-tokens", type=int, default=3000)
    parser.add_argument("--traits", type=int, default=12, help="first N traits only (smoke runs)")
    args = parser.parse_args()
    rubrics = default_rubric_set()
    rubrics = rubrics.select(list(rubrics.rubrics)[: args.traits])
    run = long_run(args.min_tokens)
    passes = ScoringOptions().settings.denoise.passes
    print(f"run: {len(run.transcript)} events, {len(rubrics.rubrics)} traits x {passes} passes, "
          f"judge {EMBEDDED_MODEL}, {embedded_model().llm.n_threads} thread(s)", flush=True)
    shipped = timed_score(run, "transcript_first", rubrics)
    rubric_first = timed_score(run, "rubric_first", rubrics)
    bound = lower_bound(run, passes, rubrics)
    print(f"speedup_vs_rubric_first={rubric_first / shipped:.2f} ratio_to_lower_bound={shipped / bound:.2f}")


if __name__ == "__main__":
    main()
