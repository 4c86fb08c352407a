"""Benchmark: this product against Inspect AI's model-graded scorer on one llama.cpp server.

Both products judge the same long transcript (the one ``bench/prompt_layout.py`` builds) on
the same traits, the same number of passes per trait, with the same reply cap, against one
llama-cpp-python OpenAI-compatible server on loopback (SmolLM2-135M, one slot, one thread).
The product goes through ``--judge openai/smollm2`` with ``OPENAI_API_BASE``; Inspect runs a
task whose samples are the traits (the rubric as the criterion, the transcript as the graded
answer) for ``passes`` epochs, scored by ``inspect_ai.scorer.model_graded_qa``.

Rounds alternate (product, Inspect, then Inspect, product, ...). The server's own timing
lines give the prompt tokens it evaluated and the tokens it decoded for each product; the
versions of Inspect and of llama-cpp-python are printed first. Last line:
``product_best_s=<a> inspect_best_s=<b> ratio=<a/b>``.

Then, where llama.cpp's own ``llama-server`` is installed (``--llama-server``, else
``JUDGE_LLAMA_SERVER`` or ``llama-server`` on PATH; ``.ci/run`` builds one), the same rounds
against it with several slots (``--slots``, 4 by default as llama-server's own automatic
setting; one KV cache shared by the slots, one thread): llama-cpp-python's server answers one
request at a time behind one lock whatever its settings, so ``--parallel`` exists only there.
The product asks each trait's passes as one request of ``n`` choices (as many as the server
has slots), Inspect sends its grader calls side by side. Its last line is
``slots=<n> product_best_s=<a> inspect_best_s=<b> ratio=<a/b>``.

Needs the ``bench`` extra (``pip install -e '.[bench]'``: inspect-ai and the server).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from prompt_layout import long_run

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.run import Run
from judge.engine.judging.prompt import render_event, rubric_block
from judge.engine.judging.runner import RunnerConfig
from judge.engine.packs import RubricSet, default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run
from tests.engine.judging.llama_server import (
    LlamaServer,
    decoded_tokens,
    evaluated_prompt_tokens,
    llama_cpp_server,
    llama_cpp_server_binary,
    llama_server,
    server_counters,
)

MODEL = "smollm2"


class Result(NamedTuple):
    wall_s: float
    evaluated: int
    sequences: int
    decoded: int


def versions() -> str:
    """The installed versions of both sides' packages and of the server."""
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in ("inspect-ai", "llama-cpp-python", "judge"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def _measured(server: LlamaServer, work: Any) -> Result:
    """``work``'s wall and the server's own figures for it: the prompt tokens it evaluated and
    the tokens it decoded (``llama-server``'s counters where it has them, else its timing
    lines), and the sequences it decoded (one a call, ``n`` a call of ``n`` choices)."""
    since = server.log.stat().st_size
    before = server_counters(server) if server.metrics_url else (0, 0)
    started = time.perf_counter()
    work()
    wall = time.perf_counter() - started
    each = decoded_tokens(server.log, since=since)
    if server.metrics_url:
        evaluated, decoded = (a - b for a, b in zip(server_counters(server), before, strict=True))
        return Result(wall, evaluated, len(each), decoded)
    return Result(wall, sum(evaluated_prompt_tokens(server.log, since=since)), len(each), sum(each))


def run_product(
    server: LlamaServer, run: Run, rubrics: RubricSet, passes: int, max_tokens: int
) -> None:
    os.environ["OPENAI_API_BASE"] = server.base_url
    os.environ.setdefault("OPENAI_API_KEY", "unused")
    options = ScoringOptions(
        judge_model=f"openai/{MODEL}",
        runner=RunnerConfig(max_tokens=max_tokens),
        settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=passes, min_n_runs=passes)),
    )
    card = score_run(run, options=options, rubrics=rubrics)
    parse = card.judge_parse[f"openai/{MODEL}"]
    if parse.passes != passes * len(rubrics.rubrics):
        raise RuntimeError(f"the product made {parse.passes} passes")
    # a pass whose reply held no score in range is counted, not hidden
    print(
        f"  product passes: {parse.passes}, without a readable verdict {parse.unparseable}, "
        f"shared {parse.shared_passes}, formats {dict(parse.reply_formats)}",
        flush=True,
    )


def run_inspect(
    server: LlamaServer, run: Run, rubrics: RubricSet, passes: int, max_tokens: int, logs: Path
) -> None:
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import GenerateConfig, ModelOutput, get_model
    from inspect_ai.scorer import model_graded_qa
    from inspect_ai.solver import Generate, TaskState, solver

    os.environ["LLAMACPP_API_KEY"] = "unused"
    model = f"openai-api/llamacpp/{MODEL}"
    transcript = "\n".join(render_event(e) for e in run.transcript)

    @solver
    def recorded_transcript() -> Any:
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            state.output = ModelOutput.from_content(model, transcript)
            return state

        return solve

    samples = [
        Sample(
            id=r.trait,
            input='Take part as seat "buyer" in this recorded market episode.',
            target=rubric_block(r, "buyer"),
        )
        for r in rubrics.rubrics.values()
    ]
    # one model, the grader, for the eval too (the solver replays the transcript and never
    # calls it): the reply cap is set on it, and it is built afresh for this server, since
    # Inspect keeps a model by name otherwise and a second server's round would call the first
    # one's closed port (and retry without end)
    grader = get_model(
        model,
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        base_url=server.base_url,
        memoize=False,
    )
    task = Task(
        dataset=samples,
        solver=recorded_transcript(),
        scorer=model_graded_qa(model=grader),
        epochs=passes,
    )
    logs_out = eval(
        task,
        model=grader,
        log_dir=str(logs),
        display="none",
        max_tokens=max_tokens,
        temperature=0.0,
    )
    if logs_out[0].status != "success":
        raise RuntimeError(f"Inspect run ended {logs_out[0].status}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--traits", type=int, default=12, help="first N traits only (smoke runs)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--min-tokens", type=int, default=3000)
    parser.add_argument("--max-tokens", type=int, default=160)
    parser.add_argument(
        "--llama-server", help="llama.cpp's llama-server binary (default: found as documented)"
    )
    parser.add_argument("--slots", type=int, default=4, help="llama-server's slots")
    parser.add_argument(
        "--only-slots", action="store_true", help="the comparison on llama-server only"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="one trait, one pass, one round, a short run (CI)"
    )
    args = parser.parse_args()
    if args.smoke:
        missing = [m for m in ("inspect_ai", "llama_cpp") if importlib.util.find_spec(m) is None]
        if missing:  # the product's side was imported above: a rename there still fails
            print(
                f"smoke: {', '.join(missing)} not installed (the bench extra); comparison skipped"
            )
            return
        args.traits, args.rounds, args.min_tokens, args.max_tokens = 1, 1, 300, 16
    print(f"versions: {versions()}", flush=True)
    rubrics = default_rubric_set()
    rubrics = rubrics.select(list(rubrics.rubrics)[: args.traits])
    run = long_run(args.min_tokens)
    args.passes = 1 if args.smoke else ScoringOptions().settings.denoise.passes  # floor: 5
    print(
        f"run: {len(run.transcript)} events (transcript >= {args.min_tokens} tokens), "
        f"{len(rubrics.rubrics)} traits x {args.passes} passes, reply cap {args.max_tokens}, "
        "loopback",
        flush=True,
    )
    if not args.only_slots:
        print("one slot: llama-cpp-python's server, 1 thread", flush=True)
        with (
            tempfile.TemporaryDirectory() as tmp,
            llama_server(Path(tmp) / "server.log") as server,
        ):
            best_p, best_i = compare(server, run, rubrics, args, Path(tmp))
        print(
            f"product_best_s={best_p:.1f} inspect_best_s={best_i:.1f} ratio={best_p / best_i:.2f}"
        )
    binary = Path(args.llama_server) if args.llama_server else llama_cpp_server_binary()
    if binary is None:
        print("several slots: no llama-server (llama.cpp's own server) found; comparison skipped")
        return
    # every slot may hold a whole prompt of its own (Inspect's calls do): 8k cells each
    cells = 8192 * args.slots
    print(
        f"several slots: {binary}, {args.slots} slots, one KV cache of {cells} cells, 1 thread",
        flush=True,
    )
    with (
        tempfile.TemporaryDirectory() as tmp,
        llama_cpp_server(binary, Path(tmp) / "server.log", slots=args.slots, n_ctx=cells) as server,
    ):
        best_p, best_i = compare(server, run, rubrics, args, Path(tmp))
    print(
        f"slots={args.slots} product_best_s={best_p:.1f} inspect_best_s={best_i:.1f} "
        f"ratio={best_p / best_i:.2f}"
    )


def compare(
    server: LlamaServer, run: Run, rubrics: RubricSet, args: argparse.Namespace, tmp: Path
) -> tuple[float, float]:
    """Alternating rounds of both sides against ``server``; each side's best wall."""
    walls: dict[str, list[float]] = {"product": [], "inspect": []}
    jobs = {
        "product": lambda: run_product(server, run, rubrics, args.passes, args.max_tokens),
        "inspect": lambda: run_inspect(
            server, run, rubrics, args.passes, args.max_tokens, tmp / "logs"
        ),
    }
    for r in range(args.rounds):
        for name in ["product", "inspect"] if r % 2 == 0 else ["inspect", "product"]:
            result = _measured(server, jobs[name])
            walls[name].append(result.wall_s)
            print(
                f"round {r + 1} {name:>8}: {result.wall_s:7.1f} s, {result.sequences} sequences, "
                f"{result.evaluated:,} prompt tokens evaluated and {result.decoded:,} "
                f"decoded by the server ({result.decoded / max(result.sequences, 1):.1f} a sequence)",
                flush=True,
            )
    return min(walls["product"]), min(walls["inspect"])


if __name__ == "__main__":
    main()
