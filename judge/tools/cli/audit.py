"""`judge audit`: how far a judge's scores move under perturbations that leave conduct unchanged
(docs/audit.md: the command, its outputs and the resumable pass store)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from judge.core.domain.judging import JudgePass, ScoreMode, SeatPassKey
from judge.core.domain.run import Run
from judge.core.errors import InputError
from judge.core.scoring.era import prompt_version_for
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import default_data_path, load_manifest
from judge.engine.calibration.modes import rescored
from judge.engine.calibration.runner import PassStore, judge_items_sync, load_store
from judge.engine.checks.runfiles import read_run
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.judging.registry import JudgeSpec, backend_for
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, judge_of
from judge.tools.audit.perturb import PERTURBATIONS
from judge.tools.audit.plan import AuditItem, audit_plan, shared_prompts
from judge.tools.audit.render import render_defence, render_html, render_markdown
from judge.tools.audit.report import AuditReport, JudgedPasses, build_report
from judge.tools.cli.calibration import (
    add_defence_option,
    add_pass_score_option,
    defence_folders,
    mode_folders,
    scoring_options,
    write_report_files,
)
from judge.tools.cli.options import add_concurrency_option, add_output_options, show_progress
from judge.tools.cli.render import progress_bar
from judge.tools.importers.registry import import_set


def register(sub: Any) -> None:
    p = sub.add_parser(
        "audit",
        help="how far perturbations that leave conduct unchanged move a judge's scores",
        description="judge audit --judge MODEL RUN.json ... | judge audit --judge MODEL --set NAME",
    )
    p.add_argument("runs", nargs="*", type=Path, metavar="RUN.json", help="run files to audit")
    p.add_argument(
        "--set", help="audit a calibration set's runs instead (casino, dices, or a manifest)"
    )
    p.add_argument(
        "--data", type=Path, help="the set's data file or folder (default: the shared data)"
    )
    p.add_argument("--judge", help=f"litellm model id (default $JUDGE_MODEL or {EMBEDDED_MODEL})")
    p.add_argument("--limit", type=int, help="audit only the first N runs")
    p.add_argument(
        "--passes", type=int, default=5, help="passes per trait and perturbation (the floor too)"
    )
    p.add_argument(
        "--traits", help="comma-separated traits (default: the set's mapped traits, or all)"
    )
    p.add_argument("--perturbations", help=f"comma-separated subset of {', '.join(PERTURBATIONS)}")
    p.add_argument(
        "--seed", type=int, default=0, help="seed of the perturbations and of the bootstrap"
    )
    add_concurrency_option(p, default=4)
    add_output_options(p, "audit/<set> or audit/runs")
    add_pass_score_option(p, "OUT/sampled and OUT/expected")
    add_defence_option(p, "OUT/defence-off, OUT/defence-on and OUT/defence.md")
    p.add_argument(
        "--from-store",
        action="store_true",
        help="judge nothing: report what the pass store holds, items without passes left out",
    )
    p.set_defaults(func=run_audit)


def listed(
    text: str | None, known: list[str], what: str, default: list[str] | None = None
) -> list[str]:
    """A comma-separated choice among ``known`` (``default``, else all of them, when not given)."""
    chosen = [t.strip() for t in text.split(",") if t.strip()] if text else (default or known)
    unknown = sorted(set(chosen) - set(known))
    if unknown or not chosen:
        raise InputError(f"unknown {what} {unknown}; choose among {', '.join(known)}")
    return chosen


def load_runs(args: argparse.Namespace) -> tuple[list[Run], list[str], str]:
    """The runs, the default traits, and where the runs came from."""
    if bool(args.set) == bool(args.runs):
        raise InputError("give run files or --set NAME (one of the two)")
    if not args.set:
        return (
            [read_run(p) for p in args.runs],
            list(default_rubric_set().rubrics),
            "the given run files",
        )
    manifest = load_manifest(args.set)
    data = args.data or default_data_path(manifest)
    items = import_set(manifest, data)
    return [i.run for i in items], manifest.traits, f"{manifest.name} ({data.name})"


def judge_plan(
    plan: list[AuditItem],
    traits: list[str],
    options: ScoringOptions,
    store: Path,
    judge: JudgeSpec,
    *,
    show: bool,
    from_store: bool = False,
) -> JudgedPasses:
    """Every planned item judged through the calibration runner, stored passes reused; items
    shown the same prompt share passes. ``from_store``: nothing is judged, only stored passes
    are read back."""
    prompt_version = prompt_version_for(options.settings)
    stored = load_store(store, options.judge_model, prompt_version)
    judged_as = shared_prompts(plan, options.settings, {k: len(v) for k, v in stored.items()})
    if from_store:
        return shared_passes(plan, judged_as, stored_passes(stored, traits, options))
    chosen = [i for i in plan if judged_as[i.item_id] == i.item_id]
    items = [CalibrationItem(item_id=i.item_id, run=i.run, labels=[]) for i in chosen]
    with progress_bar(show, "audit") as tick:
        passes = judge_items_sync(
            items,
            rubrics=default_rubric_set().select(traits),
            options=options,
            backend=backend_for(judge),
            store=PassStore(store, options.judge_model, prompt_version),
            tick=tick,
            stored=stored,
        )
    return shared_passes(plan, judged_as, passes)


def stored_passes(
    stored: dict[str, dict[SeatPassKey, JudgePass]], traits: list[str], options: ScoringOptions
) -> JudgedPasses:
    """The store's passes of the chosen traits, the first ``--passes`` of each, per item."""
    wanted = set(traits)
    n = options.settings.denoise.n_runs
    out: dict[tuple[str, str, str], list[JudgePass]] = {}
    for item_id, found in stored.items():
        for (seat, trait, index), judge_pass in sorted(found.items()):
            if trait in wanted and index < n:
                out.setdefault((item_id, seat, trait), []).append(judge_pass)
    return out


def shared_passes(
    plan: list[AuditItem], judged_as: dict[str, str], passes: JudgedPasses
) -> JudgedPasses:
    """The passes of every planned item: its own, or those of the item judged in its place."""
    by_item: dict[str, list[tuple[str, str, Sequence[JudgePass]]]] = {}
    for (item_id, seat, trait), found in passes.items():
        by_item.setdefault(item_id, []).append((seat, trait, found))
    return {
        (item.item_id, seat, trait): found
        for item in plan
        for seat, trait, found in by_item.get(judged_as[item.item_id], [])
    }


def write_report(out: Path, report: AuditReport) -> None:
    write_report_files(out, report, render_markdown(report), render_html(report))
    print(f"audit report: {out / 'report.md'} ({out / 'report.html'}, {out / 'report.json'})")


def run_audit(args: argparse.Namespace) -> int:
    runs, default_traits, source = load_runs(args)
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be at least 1")
    chosen = runs[: args.limit] if args.limit else runs
    traits = listed(args.traits, list(default_rubric_set().rubrics), "traits", default_traits)
    perturbations = listed(args.perturbations, list(PERTURBATIONS), "perturbations")
    out: Path = args.out or Path("audit") / (load_manifest(args.set).name if args.set else "runs")
    plan = audit_plan(chosen, perturbations, args.seed)
    n, total = len(chosen), len(runs)
    which = f"the first {n} of {total} runs" if n < total else f"all {total} runs"
    stored = "read from the pass store, items without passes left out; " if args.from_store else ""
    audited = f"{which} of {source}, in file order; traits {', '.join(traits)}; {stored}"
    sides: dict[bool, dict[ScoreMode, AuditReport]] = {}
    judge = judge_of(scoring_options(args))  # one judge for both sides of --defence
    for defence, folder in defence_folders(args.defence, out):
        options = scoring_options(args, defence=defence)
        passes = judge_plan(
            plan,
            traits,
            options,
            folder / "passes.jsonl",
            judge,
            show=show_progress(args),
            from_store=args.from_store,
        )
        sides[defence] = {}
        for mode, mode_folder in mode_folders(args.pass_score, folder):
            report = build_report(
                plan,
                rescored(passes, mode),
                traits=traits,
                perturbations=perturbations,
                judge_model=options.judge_model,
                judge_note=judge.note,
                slice_text=f"{audited}defence {'on' if defence else 'off'}",
                seed=args.seed,
                n_passes=args.passes,
            )
            report.pass_score = mode
            sides[defence][mode] = report
            write_report(mode_folder, report)
    if len(sides) == 2:
        (out / "defence.md").write_text(render_defence(sides[False], sides[True]), encoding="utf-8")
        print(f"defence off against on: {out / 'defence.md'}")
    return 0
