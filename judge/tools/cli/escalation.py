"""`judge escalation set|show|curve|drop`: each trait's target agreement with the owners, the
confidence threshold the store's labels support for it, and the coverage it costs
(docs/escalation.md); with ``--set NAME --passes PATH``, figures from a calibration set, offline."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError
from sqlmodel import Session

from judge.core.domain.escalation import (
    CurvePoint,
    EscalationTargetCreate,
    SplitFigures,
    TraitEscalation,
)
from judge.core.domain.judging import SCORE_MODES, ScoreMode
from judge.core.errors import InputError, describe_validation_error
from judge.core.scoring import escalation as rules
from judge.core.scoring.escalation import JudgedItem
from judge.engine.calibration.escalation import label_for, measure_of, set_items
from judge.engine.calibration.manifest import default_data_path, load_manifest
from judge.engine.calibration.runner import read_judging
from judge.server.auth import owner_actor
from judge.server.service import escalation as service
from judge.server.store.db import make_engine, transaction
from judge.tools.cli.exit_codes import EXIT_OK
from judge.tools.cli.options import DEFAULT_DATABASE_URL, database_url
from judge.tools.cli.render import figure
from judge.tools.importers.registry import import_set


def register(sub: Any) -> None:
    p = sub.add_parser(
        "escalation",
        help="per trait: the judge-confidence threshold that keeps agreement with the owners "
        "at a target, and what escalates",
        description="Selective escalation (docs/escalation.md): choose a trait's threshold on "
        "the selection half of the labelled runs, prove it on the held-out half.",
    )
    p.add_argument(
        "--database-url",
        help=f"store to use (default $JUDGE_DATABASE_URL or {DEFAULT_DATABASE_URL})",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    put = actions.add_parser("set", help="set a trait's target; prints the threshold chosen")
    put.add_argument("trait")
    put.add_argument("--target", type=float, required=True, help="agreement wanted, e.g. 0.8")
    put.add_argument("--risk", type=float, default=0.1, help="chance allowed of missing it")
    put.add_argument("--seed", type=int, default=0, help="the run split's seed")
    put.add_argument("--owner", default="cli", help="recorded as who set it")
    put.add_argument("--json", action="store_true", help="print the stored record as JSON")
    add_set_options(put)
    show = actions.add_parser("show", help="every trait's stored target and figures")
    show.add_argument("--json", action="store_true")
    curve = actions.add_parser("curve", help="a trait's coverage-agreement curve, live")
    curve.add_argument("trait")
    curve.add_argument("--seed", type=int, default=0, help="the run split's seed")
    add_set_options(curve)
    drop = actions.add_parser("drop", help="drop a trait's target")
    drop.add_argument("trait")
    drop.add_argument("--owner", default="cli", help="recorded as who dropped it")
    p.set_defaults(func=run)


def add_set_options(parser: argparse.ArgumentParser) -> None:
    """``--set``, ``--passes``, ``--data`` and ``--pass-score``: a calibration set instead of
    the store."""
    parser.add_argument(
        "--set", help="a calibration set (casino, dices, a manifest path) instead of the store"
    )
    parser.add_argument(
        "--passes", type=Path, help="with --set: the judge's pass store (a passes.jsonl)"
    )
    parser.add_argument("--data", type=Path, help="with --set: the set's data file or folder")
    parser.add_argument(
        "--pass-score",
        choices=SCORE_MODES,
        default="sampled",
        help="with --set: what each pass counts with",
    )


def run(args: argparse.Namespace) -> int:
    if any(getattr(args, name, None) is not None for name in ("set", "passes", "data")):
        on_set(args)
        return EXIT_OK
    engine = make_engine(database_url(args.database_url))
    try:
        with transaction(engine) as session:
            ACTIONS[args.action](session, args)
    finally:
        engine.dispose()
    return EXIT_OK


def set_target(session: Session, args: argparse.Namespace) -> None:
    """`set`: choose and store the threshold, print what it costs."""
    found = service.set_target(
        session, trait=args.trait, body=target_of(args), by=owner_actor(args.owner)
    )
    print(found.model_dump_json(indent=2) if args.json else summary(found))


def show(session: Session, args: argparse.Namespace) -> None:
    """`show`: every stored target, in trait order."""
    stored = sorted(service.stored(session).traits.values(), key=lambda t: t.trait)
    if args.json:
        print(json.dumps([t.model_dump(mode="json") for t in stored], indent=2))
    else:
        print("\n\n".join(summary(t) for t in stored) or "no escalation target is set")


def curve(session: Session, args: argparse.Namespace) -> None:
    """`curve`: the trait's live curves on both splits, before a target is chosen."""
    split = rules.split_by_run(service.labelled_items(session, trait=args.trait), args.seed)
    print(curve_table("selection", rules.curve(split.selection)))
    print(curve_table("held-out", rules.curve(split.held_out)))


class SetItems(NamedTuple):
    """A trait's escalation items on a calibration set, with what the figures are read on."""

    items: list[JudgedItem]
    set_name: str
    label: str
    measure: str
    judge_model: str


def calibration_items(
    name: str, passes: Path, trait: str, *, data: Path | None = None, mode: ScoreMode = "sampled"
) -> SetItems:
    """The set's labelled seats of ``trait`` that the pass store scored (no judge call)."""
    manifest = load_manifest(name)
    spec = label_for(manifest, trait)
    judged = read_judging(passes)
    found = import_set(manifest, data or default_data_path(manifest))
    items = set_items(found, manifest, trait, judged.passes, mode=mode)
    if not items:
        raise InputError(
            f"{passes}: no pass of {trait!r} on a seat {manifest.name} labels "
            f"{spec.name!r} for; is it the pass store of this set?"
        )
    return SetItems(items, manifest.name, spec.name, measure_of(spec), judged.stamp.judge_model)


def on_set(args: argparse.Namespace) -> None:
    """`set` or `curve` with ``--set``: figures from a calibration set, printed, never stored."""
    if args.set is None or args.passes is None:
        raise InputError("judge escalation: --set NAME and --passes PATH go together")
    found = calibration_items(
        args.set, args.passes, args.trait, data=args.data, mode=args.pass_score
    )
    head = (
        f"{found.set_name}: {args.trait} against the label {found.label!r}; judge "
        f"{found.judge_model}, pass score {args.pass_score}; {found.measure}"
    )
    if args.action == "curve":
        print(head)
        split = rules.split_by_run(found.items, args.seed)
        print(curve_table("selection", rules.curve(split.selection)))
        print(curve_table("held-out", rules.curve(split.held_out)))
        return
    chosen = service.evaluate(
        found.items,
        trait=args.trait,
        body=target_of(args),
        by=owner_actor(args.owner),
        measure=found.measure,
    )
    print(chosen.model_dump_json(indent=2) if args.json else f"{head}\n{summary(chosen)}")
    print("(a calibration set: printed, not stored)", file=sys.stderr)


def drop(session: Session, args: argparse.Namespace) -> None:
    """`drop`: the card's judge decides the trait again."""
    service.remove_target(session, trait=args.trait, by=owner_actor(args.owner))
    print(f"dropped the escalation target of {args.trait}", file=sys.stderr)


ACTIONS: dict[str, Callable[[Session, argparse.Namespace], None]] = {
    "set": set_target,
    "show": show,
    "curve": curve,
    "drop": drop,
}


def target_of(args: argparse.Namespace) -> EscalationTargetCreate:
    """The target the options ask for (InputError naming an option out of range)."""
    try:
        return EscalationTargetCreate(target=args.target, risk=args.risk, seed=args.seed)
    except ValidationError as exc:
        raise InputError(f"judge escalation set: {describe_validation_error(exc)}") from None


def summary(found: TraitEscalation) -> str:
    """A stored trait's figures as lines of text, the held-out curve last."""
    held, chosen = found.held_out, found.selection
    met = "met" if found.held_out_meets_target else "NOT met"
    head = f"{found.trait}: target {found.target:g} ({found.measure}), risk {found.risk:g}"
    lines = [
        f"{head}, seed {found.seed}",
        f"  threshold {figure(found.threshold, 2)}: {found.note}",
        f"  selection: {_split_line(chosen)}, bound {figure(chosen.lower_bound, 2)}",
        f"  held-out:  {_split_line(held)}, target {met}",
        curve_table("  held-out curve", found.curve_held_out),
    ]
    return "\n".join(lines)


def _split_line(figures: SplitFigures) -> str:
    return (
        f"{figures.n_items} items of {figures.n_runs} runs, coverage {figures.coverage:.2f}, "
        f"agreement {figure(figures.agreement, 2)}"
    )


def curve_table(title: str, points: Sequence[CurvePoint]) -> str:
    rows = [f"{title}: threshold  coverage  agreement  kept"]
    rows += [
        f"  {p.threshold:9.2f}  {p.coverage:8.2f}  {figure(p.agreement, 2):>9}  {p.n_kept:4d}"
        for p in points
    ]
    return "\n".join(rows if points else [f"{title}: no labelled item"])
