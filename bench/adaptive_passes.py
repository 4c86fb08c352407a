"""Report: adaptive passes on the CaSiNo test set, against fixed passes (docs/scoring.md).

Two measurements, both through the real adaptive runner (``judge.engine.judging.adaptive``):

1. **A sampling judge** (all 100 test dialogues, both participants, negotiation and
   cooperation): each pass is a draw from the embedded SmolLM2 judge's own distribution over
   the score grid for that seat and trait, read from the cached calibration passes
   (``reports/calibration/casino-test/passes.jsonl``: one pass per seat and trait with its
   token log-probabilities). That is the judge the model would be if it sampled its verdict
   instead of decoding greedily, so passes disagree where the model is unsure. For each
   policy the report gives the judge calls against fixed-at-max, and the variance of the
   trait mean reached against fixed-at-floor: exactly ``sigma^2 / n`` per seat and trait
   (``sigma^2`` the grid distribution's variance, ``n`` the passes taken), and measured as
   the mean squared error of the trait mean around the distribution's expected value over
   ``--repeats`` seeded repetitions.
2. **The embedded judge itself** on ``--embedded`` dialogues (a small slice: it is slow on a
   shared CPU), scored through ``score_run`` with the adaptive policy.

Writes ``report.md`` and ``results.json`` into ``--out``::

    python bench/adaptive_passes.py --data ../shared/data/casino/casino_test.json \
        --passes reports/calibration/casino-test/passes.jsonl --embedded 1 \
        --out reports/adaptive/casino-test
    python bench/adaptive_passes.py --smoke    # seconds: 10 seats and traits, no model
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.passes import PassPolicy
from judge.engine.judging.adaptive import run_rounds
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.judging.runner import PassSpec, RunnerConfig
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.tools.importers.casino import casino_run

REPO = Path(__file__).resolve().parents[1]
GRID = [round(0.1 * i, 1) for i in range(11)]
SPREADS = (0.2, 0.5, 0.9)


class Group(NamedTuple):
    """One seat and trait of one dialogue: the judge's distribution over the grid."""

    item: str
    seat: str
    trait: str
    probabilities: list[float]

    @property
    def mean(self) -> float:
        return sum(p * g for p, g in zip(self.probabilities, GRID, strict=True))

    @property
    def variance(self) -> float:
        return sum(p * (g - self.mean) ** 2 for p, g in zip(self.probabilities, GRID, strict=True))


def load_groups(path: Path, limit: int | None) -> list[Group]:
    groups = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        judged = row["pass"]
        if judged.get("score_distribution"):
            total = sum(judged["score_distribution"])
            probabilities = [p / total for p in judged["score_distribution"]]
            groups.append(Group(row["item_id"], row["seat"], judged["trait"], probabilities))
    return groups[:limit]


def sampling_judge(group: Group, rng: random.Random) -> ScriptedBackend:
    def answer(request: JudgeRequest) -> str:
        score = rng.choices(GRID, weights=group.probabilities)[0]
        return json.dumps({"score": score, "turns": [1], "rationale": "sampled"})

    return ScriptedBackend(answer, model="sampled-smollm2")


async def passes_taken(group: Group, policy: PassPolicy, rng: random.Random) -> list[float]:
    """The scores one seat and trait gets under ``policy`` from the sampling judge."""
    request = JudgeRequest(messages=[{"role": "user", "content": "x"}], label=group.trait)
    specs = [PassSpec(group.trait, i, request) for i in range(policy.max)]
    made = await run_rounds(
        specs,
        [sampling_judge(group, rng)],
        policy,
        known_turns={1},
        config=RunnerConfig(concurrency=policy.max),
        done={},
    )
    return [p.score for p in made if p.score is not None]


class Row(NamedTuple):
    policy: str
    calls: int
    escalated: float
    var_of_mean: float
    mse: float


async def measure(groups: Sequence[Group], policy: PassPolicy, repeats: int, name: str) -> Row:
    calls, escalated, analytic, squared = 0, 0, 0.0, 0.0
    for r in range(repeats):
        rng = random.Random(r)
        for g in groups:
            scores = await passes_taken(g, policy, rng)
            calls += len(scores)
            escalated += len(scores) > policy.floor
            analytic += g.variance / len(scores)
            squared += (sum(scores) / len(scores) - g.mean) ** 2
    n = repeats * len(groups)
    return Row(name, calls // repeats, escalated / n, analytic / n, squared / n)


async def sampled_rows(groups: Sequence[Group], floor: int, top: int, repeats: int) -> list[Row]:
    fixed = [
        await measure(groups, PassPolicy(floor=n, max=n, spread=0.0), repeats, f"fixed {n}")
        for n in (floor, top)
    ]
    adaptive = [
        await measure(
            groups, PassPolicy(floor=floor, max=top, spread=s), repeats, f"{floor}:{top}:{s:g}"
        )
        for s in SPREADS
    ]
    return [*fixed, *adaptive]


async def embedded_slice(data: Path, dialogues: int, policy: PassPolicy) -> list[dict[str, Any]]:
    """The embedded judge on the first ``dialogues`` test dialogues, adaptive policy."""
    rubrics = default_rubric_set().select(["negotiation", "cooperation"])
    options = ScoringOptions(
        judge_model=EMBEDDED_MODEL,
        settings=MeasurementSettings(denoise=DenoiseConfig.model_validate({"passes": policy})),
    )
    out = []
    for number, dialogue in enumerate(json.loads(data.read_text())[:dialogues]):
        run, _ = casino_run(dialogue, f"{data.name} dialogue #{number}")
        started = time.perf_counter()
        card = await score_run_async(run, options=options, rubrics=rubrics)
        seconds = time.perf_counter() - started
        for seat in card.seats.values():
            for t in seat.traits.values():
                decision = t.adaptive
                out.append(
                    {
                        "run": run.run_id,
                        "seat": seat.seat,
                        "trait": t.trait,
                        "passes": t.n_passes,
                        "pass_scores": t.pass_scores,
                        "why": decision.note if decision else None,
                        "seconds_for_run": round(seconds, 1),
                    }
                )
    return out


def render(
    rows: list[Row], groups: int, repeats: int, embedded: list[dict[str, Any]], how: str
) -> str:
    top, floor = rows[1], rows[0]
    lines = [
        "# Adaptive passes on the CaSiNo test set",
        "",
        'Generated by `bench/adaptive_passes.py` (docs/scoring.md, "Adaptive passes").',
        "",
        f"## A sampling judge: {groups} seats and traits, {repeats} repetitions",
        "",
        (
            "Each pass is a draw from the embedded SmolLM2 judge's own distribution over the "
            "score grid for that seat and trait (cached calibration passes of the CaSiNo test "
            "set, negotiation and cooperation). Calls per repetition; variance of the trait "
            "mean exact (`sigma^2/n`) and measured (mean squared error around the "
            "distribution's mean)."
        ),
        "",
        "| policy | calls | saved vs fixed-at-max | traits escalated | var of mean | vs fixed-at-floor | MSE of mean |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.policy} | {r.calls} | {1 - r.calls / top.calls:.0%} | {r.escalated:.0%} "
            f"| {r.var_of_mean:.5f} | {r.var_of_mean / floor.var_of_mean:.2f}x | {r.mse:.5f} |"
        )
    lines += [
        "",
        (
            "The exact `sigma^2/n` averages the variance each seat and trait would have at the "
            "passes it took; the measured error is larger under an adaptive policy because when "
            "to stop depends on the passes seen: a trait whose first draws happen to agree stops "
            "with their mean, however unsure the judge is. The measured column is the one to "
            "read."
        ),
        "",
        "## The embedded judge itself",
        "",
    ]
    if not embedded:
        lines.append("Not run (`--embedded 0`).")
    for e in embedded:
        lines.append(
            f"- {e['run']} {e['seat']} {e['trait']}: {e['passes']} passes "
            f"{e['pass_scores']} ({e['why']}; run scored in {e['seconds_for_run']} s)"
        )
    return "\n".join([*lines, "", "## What was run", "", how]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--data", type=Path, default=REPO.parent / "shared/data/casino/casino_test.json"
    )
    parser.add_argument(
        "--passes", type=Path, default=REPO / "reports/calibration/casino-test/passes.jsonl"
    )
    parser.add_argument("--floor", type=int, default=5)
    parser.add_argument("--max", type=int, default=15)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--embedded", type=int, default=0, help="dialogues for the real judge")
    parser.add_argument(
        "--embedded-from",
        type=Path,
        default=None,
        help="take the embedded slice from an earlier results.json instead of judging again",
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--smoke", action="store_true", help="10 seats and traits, 1 repeat")
    args = parser.parse_args(argv)
    groups = load_groups(args.passes, 10 if args.smoke else None)
    repeats = 1 if args.smoke else args.repeats
    started = time.perf_counter()
    rows = asyncio.run(sampled_rows(groups, args.floor, args.max, repeats))
    sampled_s = time.perf_counter() - started
    policy = PassPolicy(floor=args.floor, max=args.max, spread=SPREADS[0])
    if args.embedded_from is not None:
        embedded = json.loads(args.embedded_from.read_text())["embedded"]
    elif args.embedded:
        embedded = asyncio.run(embedded_slice(args.data, args.embedded, policy))
    else:
        embedded = []
    source = (
        "taken from an earlier run's results.json"
        if args.embedded_from
        else ("judged here" if embedded else "not run")
    )
    how = (
        f"`python {' '.join(sys.argv)}`: the sampling judge took {sampled_s:.0f} s; the "
        f"embedded slice ({len(embedded)} seat-trait results, policy "
        f"{policy.floor}:{policy.max}:{policy.spread:g}) was {source}."
    )
    text = render(rows, len(groups), repeats, embedded, how)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "report.md").write_text(text)
        results = {"rows": [r._asdict() for r in rows], "embedded": embedded}
        (args.out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
