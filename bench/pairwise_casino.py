"""Report: the embedded judge's position bias on matched CaSiNo pairs (docs/scoring.md).

Each pair is the two participants of one CaSiNo dialogue (two seats of one run: the same
negotiation, the same counterpart), judged on one trait in both orders through the real
pairwise path (screening, spotlighting, the embedded SmolLM2 batch decoder). Dialogues are
taken in file order, keeping those where the two participants' ``opponent_likeness``
answers differ, so each pair also has a human reference: the seat its counterpart liked
more. Writes ``report.md`` and ``verdicts.jsonl`` (every pass) into ``--out``::

    python bench/pairwise_casino.py --data ../shared/data/casino/casino_test.json \
        --pairs 10 --trait cooperation --passes 5 --out reports/pairwise/casino
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.pairwise import PairKey, PairToJudge, PairVerdict
from judge.core.scoring.pairwise import position_bias
from judge.core.scoring.pairwise_board import ratings_by_era
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.judging.registry import backend_for
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import pairwise_side
from judge.engine.settings import judge_spec
from judge.tools.cli.pairwise import judge_pairs, render_bias
from judge.tools.importers.casino import casino_run

LIKENESS = {
    "Extremely dislike": 1,
    "Slightly dislike": 2,
    "Undecided": 3,
    "Slightly like": 4,
    "Extremely like": 5,
}


#: CaSiNo as published, in the shared folder beside the clone (never copied here).
CASINO_TEST = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "casino" / "casino_test.json"
)


def liked_more(info: dict[str, Any]) -> str | None:
    """The seat its counterpart liked more (each answer is about the OTHER participant)."""
    first, second = sorted(info)
    about_first = LIKENESS[info[second]["outcomes"]["opponent_likeness"]]
    about_second = LIKENESS[info[first]["outcomes"]["opponent_likeness"]]
    if about_first == about_second:
        return None
    return "a" if about_first > about_second else "b"


def pairs_from(data: Path, n: int, settings: MeasurementSettings) -> list[tuple[PairToJudge, str]]:
    chosen: list[tuple[PairToJudge, str]] = []
    for number, dialogue in enumerate(json.loads(data.read_text())):
        human = liked_more(dialogue["participant_info"])
        if human is None:
            continue
        run, _ = casino_run(dialogue, f"{data.name} dialogue #{number}")
        seat_a, seat_b = sorted(run.scored_seats)
        side_a = pairwise_side(run, seat_a, settings).model_copy(update={"agent_id": seat_a})
        side_b = pairwise_side(run, seat_b, settings).model_copy(update={"agent_id": seat_b})
        key = PairKey(scenario_id=run.scenario_id, seed=None, adversary_config=None)
        chosen.append((PairToJudge(side_a, side_b, key), human))
        if len(chosen) == n:
            break
    return chosen


def _interval(low: float | None, high: float | None) -> str:
    """The rating's interval; undetermined (None) when every pair tied."""
    if low is None or high is None:
        return "[interval undetermined]"
    return f"[{low:+.3f}, {high:+.3f}]"


def report(
    verdicts: list[PairVerdict], humans: list[str], args: argparse.Namespace, seconds: float
) -> str:
    bias = position_bias(verdicts, verdicts[0].judge_model, args.trait)
    decided = [(v.outcome, h) for v, h in zip(verdicts, humans, strict=True) if v.outcome in "ab"]
    agree = sum(1 for o, h in decided if o == h)
    calls = sum(len(v.passes) for v in verdicts)
    unscored = sum(1 for v in verdicts for p in v.passes if p.winner is None)
    lines = [
        f"# Pairwise position bias: {verdicts[0].judge_model} on CaSiNo ({args.trait})",
        "",
        (
            f"Command: `python bench/pairwise_casino.py --data {args.data} --pairs {args.pairs} "
            f"--trait {args.trait} --passes {args.passes} --out {args.out}`"
        ),
        "",
        (
            f"Data: CaSiNo (Chawla et al., NAACL 2021; CC-BY-4.0), `{args.data.name}`, the first "
            f"{len(verdicts)} dialogues in file order whose participants liked each other "
            "differently; each pair is the dialogue's two participants (A = mturk_agent_1)."
        ),
        (
            f"Judge: {verdicts[0].judge_model}, pairwise prompt v{verdicts[0].prompt_version}, "
            f"{args.passes} passes per order, defence on; era {verdicts[0].era_id}."
        ),
        f"Calls: {calls} ({unscored} unscored), {seconds:.0f} s wall on the shared machine.",
        "",
        "## Position bias",
        "",
        render_bias(bias),
        "",
        "## Pairs",
        "",
        "| dialogue | AB votes A/B/neither | BA votes A/B/neither | outcome | flip | liked more |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for v, human in zip(verdicts, humans, strict=True):
        ab, ba = v.orders
        lines.append(
            f"| {v.side_a.run_id} | {ab.votes_a}/{ab.votes_b}/{ab.votes_neither} -> {ab.winner} "
            f"| {ba.votes_a}/{ba.votes_b}/{ba.votes_neither} -> {ba.winner} | {v.outcome} "
            f"| {'yes' if v.flipped else 'no'} | {human.upper()} |"
        )
    lines += [
        "",
        f"Decided pairs agreeing with the counterpart's liking: {agree} of {len(decided)}.",
        "",
        "## Ratings (seat roles; a sanity check, expected to be tied)",
        "",
    ]
    for board in ratings_by_era(verdicts):
        lines += [
            f"- {r.agent_id}: {r.rating:+.3f} {_interval(r.low, r.high)}, "
            f"W{r.wins} L{r.losses} T{r.ties}"
            for r in board.ratings
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=CASINO_TEST)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--trait", default="cooperation")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--judge", default=EMBEDDED_MODEL)
    parser.add_argument("--out", type=Path, default=None, help="required unless --smoke")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="one pair, one pass, the scripted judge, a temporary folder (CI)",
    )
    args = parser.parse_args()
    if args.smoke:
        os.environ["JUDGE_DEV_MODE"] = "1"  # the scripted judge is a test judge
        args.pairs, args.passes, args.judge = 1, 1, "scripted/0.7"
        args.out = args.out or Path(tempfile.mkdtemp(prefix="judge-pairwise-smoke-"))
    if args.out is None:
        parser.error("--out is required (the report's folder)")
    settings = MeasurementSettings(denoise=DenoiseConfig(n_runs=args.passes))
    chosen = pairs_from(args.data, args.pairs, settings)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "verdicts.jsonl").write_text("", encoding="utf-8")
    asyncio.run(judge_all(chosen, args, settings))
    print((args.out / "report.md").read_text(encoding="utf-8"), end="")


async def judge_all(
    chosen: list[tuple[PairToJudge, str]], args: argparse.Namespace, settings: MeasurementSettings
) -> list[PairVerdict]:
    """One pair at a time, the report rewritten after each: a stopped run keeps its pairs."""
    rubric = default_rubric_set().rubrics[args.trait]
    backend = backend_for(judge_spec(args.judge))
    started = time.perf_counter()
    verdicts: list[PairVerdict] = []
    for pair, _ in chosen:
        verdicts += await judge_pairs([pair], rubric, backend, settings=settings)
        seconds = time.perf_counter() - started
        print(f"pair {len(verdicts)}/{len(chosen)} after {seconds:.0f} s", file=sys.stderr)
        with (args.out / "verdicts.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(verdicts[-1].model_dump_json(exclude={"side_a", "side_b"}) + "\n")
        humans = [h for _, h in chosen[: len(verdicts)]]
        text = report(verdicts, humans, args, seconds)
        (args.out / "report.md").write_text(text, encoding="utf-8")
    return verdicts


if __name__ == "__main__":
    main()
