"""`judge align` (docs/alignment.md): propose judge changes for one trait from a calibration
set or the owners' labels in the store, each proven on held-out runs; `--adopt` adopts one
candidate of a stored proposal, on the owner's explicit command only."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path
from typing import Any

from judge.core.domain.interval import Interval
from judge.core.errors import BudgetExceeded, ConflictError, InputError, NotFoundError
from judge.engine.calibration.align import DEFAULT_SEED, HELD_OUT_SHARE, KINDS
from judge.engine.calibration.align_proof import LabelScope
from judge.engine.calibration.align_run import AlignInput, AlignJudge, Proposal, propose
from judge.engine.calibration.manifest import CalibrationSetError, default_data_path, load_manifest
from judge.engine.judging.registry import backend_for
from judge.engine.packs import default_rubric_set
from judge.engine.settings import judge_spec, load_settings
from judge.server.service import align as service
from judge.server.service.align import AlignmentAdopt, AlignmentCreate
from judge.server.store.db import make_engine, transaction
from judge.tools.cli.calibration import add_defence_option, scoring_options
from judge.tools.cli.exit_codes import EXIT_GATE, fail
from judge.tools.cli.options import add_concurrency_option, database_url
from judge.tools.cli.render import figure
from judge.tools.importers.registry import import_set


def register(sub: Any) -> None:
    a = sub.add_parser(
        "align", help="propose judge changes for one trait, proven on held-out labels"
    )
    a.add_argument("trait", nargs="?", help="the trait to align (with a set or --from-store)")
    a.add_argument("--set", help="calibration set name (casino, dices) or manifest path")
    a.add_argument("--data", type=Path, help="the set's data file or folder")
    a.add_argument("--limit", type=int, help="use only the first N items of the set")
    a.add_argument(
        "--from-store",
        action="store_true",
        help="the owners' labels in the store; the proposal is kept there for --adopt",
    )
    a.add_argument("--database-url", help="the store (default $JUDGE_DATABASE_URL)")
    a.add_argument("--judge", help="with --set: litellm model id (default $JUDGE_MODEL)")
    a.add_argument("--passes", type=int, default=1, help="with --set: passes per trait")
    a.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the split's seed")
    a.add_argument("--held-out", type=float, default=HELD_OUT_SHARE, help="share held out")
    a.add_argument("--out", type=Path, help="write the proposal as JSON and Markdown here")
    a.add_argument("--adopt", choices=KINDS, help="adopt this candidate of --proposal")
    a.add_argument("--proposal", type=int, help="with --adopt: the stored proposal's id")
    add_concurrency_option(a)
    add_defence_option(a)
    a.set_defaults(func=run_align)


def run_align(args: argparse.Namespace) -> int:
    if args.adopt is not None or args.proposal is not None:
        return adopt(args)
    if args.trait is None:
        raise InputError("name the trait to align (or --adopt KIND --proposal ID)")
    if (args.set is None) == (not args.from_store):
        raise InputError("say where the labels are: --set NAME or --from-store")
    try:
        found = from_store(args) if args.from_store else from_set(args)
    except BudgetExceeded as exc:  # nothing was judged: the owner raises the limit or waits
        fail(str(exc))
        return EXIT_GATE
    print(render_proposal(found), end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "proposal.json").write_text(found.model_dump_json(indent=2) + "\n", "utf-8")
        (args.out / "proposal.md").write_text(render_proposal(found), encoding="utf-8")
    return 0


def from_set(args: argparse.Namespace) -> Proposal:
    """A calibration set: judged now, nothing stored (adopt through the store)."""
    manifest = load_manifest(args.set)
    spec = next((s for s in manifest.labels if args.trait in s.traits), None)
    if spec is None:
        raise CalibrationSetError(
            f"{manifest.name} has no human label for {args.trait!r}; mapped traits: {manifest.traits}"
        )
    items = import_set(manifest, args.data or default_data_path(manifest))
    items = items[: args.limit] if args.limit else items
    options = scoring_options(args)
    scope = LabelScope(manifest=manifest, label=spec, trait=args.trait)
    judge = AlignJudge(default_rubric_set(), options, backend_for(judge_spec(options.judge_model)))
    with contextlib.redirect_stdout(sys.stderr):
        return asyncio.run(
            propose(
                AlignInput(items, scope, {}), judge, seed=args.seed, held_out_share=args.held_out
            )
        )


def from_store(args: argparse.Namespace) -> Proposal:
    """The owners' labels, judged by the service's judge; the proposal is kept."""
    settings = load_settings(database_url=database_url(args.database_url))
    body = AlignmentCreate(trait=args.trait, seed=args.seed, held_out_share=args.held_out)
    backend = backend_for(judge_spec(settings.model))
    try:
        kept = asyncio.run(
            service.make_proposal(
                make_engine(settings.database_url),
                body=body,
                settings=settings,
                backend=backend,
                by="cli",
            )
        )
    except NotFoundError as exc:
        raise InputError(str(exc)) from None
    print(f"proposal {kept.id} kept; adopt with: judge align --adopt KIND --proposal {kept.id}")
    return kept.proposal


def adopt(args: argparse.Namespace) -> int:
    if args.adopt is None or args.proposal is None:
        raise InputError("--adopt KIND and --proposal ID go together")
    settings = load_settings(database_url=database_url(args.database_url))
    try:
        with transaction(make_engine(settings.database_url)) as session:
            done = service.adopt(
                session,
                alignment_id=args.proposal,
                body=AlignmentAdopt(kind=args.adopt),
                by="cli",
                settings=settings,
            )
    except (ConflictError, NotFoundError) as exc:  # the owner's request, not the program
        raise InputError(str(exc)) from None
    print(
        f"adopted {done.adopted_kind} for {done.trait}: custom rubric v{done.rubric_version}, "
        f"era {done.era_before} -> {done.era_after}"
    )
    return 0


def _interval(gain: Interval) -> str:
    return f"{figure(gain.estimate)} [{figure(gain.low)}, {figure(gain.high)}]"


def render_proposal(found: Proposal) -> str:
    """The proposal as Markdown: the split, then per candidate the held-out figures."""
    lines = [
        f"# judge align: {found.trait}\n",
        (
            f"Judge {found.judge_model}; split seed {found.split.seed}: "
            f"{len(found.split.selection)} selection runs, {len(found.split.held_out)} held-out runs.\n"
        ),
        (
            "| candidate | baseline Spearman | candidate Spearman | baseline kappa | candidate kappa "
            "| baseline MAE | candidate MAE | owners' ceiling (Spearman) | MAE gain [95%] | adoptable |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in found.candidates:
        if c.proof is None:
            lines.append(f"| {c.kind} | not made: {c.note} |||||||||")
            continue
        b, n = c.proof.baseline, c.proof.candidate
        lines.append(
            f"| {c.kind} | {figure(b.judge.spearman.estimate)} | {figure(n.judge.spearman.estimate)} "
            f"| {figure(b.judge.quadratic_weighted_kappa)} | {figure(n.judge.quadratic_weighted_kappa)} "
            f"| {figure(b.judge.mae)} | {figure(n.judge.mae)} | {figure(b.ceiling.spearman)} "
            f"| {_interval(c.proof.mae_gain)} | {'yes' if c.proof.adoptable else 'no'} |"
        )
    lines.append(
        "\nA candidate is adoptable only when the whole interval of its held-out MAE gain lies "
        "above 0; nothing is adopted without `judge align --adopt` (docs/alignment.md).\n"
    )
    return "\n".join(lines)
