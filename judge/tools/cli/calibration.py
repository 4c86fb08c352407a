"""`judge calibrate` (judge a human-labelled set, resumably, and write the report) and
`judge agreement` (two raters item by item: their disagreements); docs/calibration.md."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.judging import SCORE_MODES, ScoreMode
from judge.core.errors import InputError
from judge.core.scoring.era import prompt_version_for
from judge.engine.calibration.defence import compare_defence, render_defence
from judge.engine.calibration.disagreements import RaterComparison, compare
from judge.engine.calibration.items import CalibrationItem, ScoreRow, read_jsonl, write_jsonl
from judge.engine.calibration.manifest import (
    CalibrationManifest,
    CalibrationSetError,
    default_data_path,
    load_manifest,
)
from judge.engine.calibration.modes import compare_modes, render_modes, rescored
from judge.engine.calibration.owners import card_passes, owners_manifest, passes_width
from judge.engine.calibration.render import render_html, render_markdown
from judge.engine.calibration.report import (
    JudgedPasses,
    ReportScope,
    build_report,
    human_rows,
    judge_rows,
)
from judge.engine.calibration.runner import PassStore, judge_items_sync
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.judging.registry import backend_for
from judge.engine.judging.runner import RunnerConfig
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions
from judge.engine.settings import judge_model_settings, judge_spec
from judge.server.service.label_agreement import OwnersSet, owners_set, traits_of
from judge.server.store.db import make_engine, transaction
from judge.tools.cli.options import (
    add_concurrency_option,
    add_output_options,
    database_url,
    show_progress,
)
from judge.tools.cli.render import progress_bar
from judge.tools.importers.registry import import_set


def register(sub: Any) -> None:
    c = sub.add_parser("calibrate", help="judge a human-labelled set and report agreement")
    c.add_argument("set", nargs="?", help="calibration set name (casino, dices) or manifest path")
    c.add_argument(
        "--from-store",
        action="store_true",
        help="read the owners' labels and the judge's passes kept in the store instead of a set "
        "(no judge call); one report per era under OUT/<era>",
    )
    c.add_argument(
        "--database-url",
        help="with --from-store: the store (default $JUDGE_DATABASE_URL or sqlite:///./judge.db)",
    )
    c.add_argument(
        "--judge",
        help=f"litellm model id, or several joined by commas for a judge panel "
        f"(default $JUDGE_MODEL or {EMBEDDED_MODEL})",
    )
    c.add_argument("--data", type=Path, help="the set's data file or folder")
    c.add_argument("--limit", type=int, help="judge only the first N items")
    c.add_argument(
        "--passes", type=int, default=5, help="passes per trait (this sets the floor too)"
    )
    c.add_argument("--traits", help="comma-separated traits (default: every mapped trait)")
    c.add_argument("--threshold", type=float, default=0.5, help="disagreement threshold on 0..1")
    add_concurrency_option(c)
    add_output_options(c, "calibration/<set>")
    add_pass_score_option(c, "OUT/sampled, OUT/expected and OUT/modes.md")
    add_defence_option(c, "OUT/defence-off, OUT/defence-on and OUT/defence.md")
    c.set_defaults(func=run_calibrate)

    a = sub.add_parser("agreement", help="compare two score files item by item; list disagreements")
    a.add_argument("a", type=Path, metavar="A.jsonl")
    a.add_argument("b", type=Path, metavar="B.jsonl")
    a.add_argument(
        "--threshold", type=float, default=0.25, help="list pairs at least this far apart (0..1)"
    )
    a.add_argument("--json", action="store_true", help="print the comparison as JSON")
    a.set_defaults(func=run_agreement)


def chosen_traits(manifest: CalibrationManifest, text: str | None) -> list[str]:
    traits = [t.strip() for t in text.split(",") if t.strip()] if text else manifest.traits
    unmapped = sorted(set(traits) - set(manifest.traits))
    if unmapped:
        raise CalibrationSetError(
            f"{manifest.name} has no human label for {unmapped}; mapped traits: {manifest.traits}"
        )
    return traits


def add_pass_score_option(parser: argparse.ArgumentParser, both_writes: str) -> None:
    """``--pass-score sampled|expected|both`` (shared by ``judge calibrate`` and ``judge audit``)."""
    parser.add_argument(
        "--pass-score",
        choices=[*SCORE_MODES, "both"],
        default="sampled",
        help=f"what each pass counts with; 'both' reports each mode from one judging ({both_writes})",
    )


def mode_folders(choice: str, out: Path) -> list[tuple[ScoreMode, Path]]:
    """Each pass score to report and its folder: ``out`` for one, ``out/<mode>`` for both."""
    if choice == "both":
        return [(mode, out / mode) for mode in SCORE_MODES]
    return [(cast(ScoreMode, choice), out)]


def add_defence_option(parser: argparse.ArgumentParser, both_writes: str | None = None) -> None:
    """``--defence on|off`` (``|both`` where ``both_writes`` says where both go)."""
    parser.add_argument(
        "--defence",
        choices=["on", "off", "both"] if both_writes else ["on", "off"],
        default="on",
        help="withhold judge-directed text and spotlight the transcript (docs/integrity.md); "
        "off judges with prompt version 4 as before the defence"
        + (f"; 'both' judges each way ({both_writes})" if both_writes else ""),
    )


def defence_folders(choice: str, out: Path) -> list[tuple[bool, Path]]:
    """Each defence setting and its folder: ``out`` for one, ``out/defence-off|on`` for both."""
    if choice == "both":
        return [(False, out / "defence-off"), (True, out / "defence-on")]
    return [(choice == "on", out)]


def scoring_options(args: argparse.Namespace, *, defence: bool | None = None) -> ScoringOptions:
    """From ``--judge``, ``--concurrency``, ``--passes`` and ``--defence`` (which ``defence``
    overrides); shared by ``judge calibrate`` and ``judge audit``."""
    if args.passes < 1 or args.concurrency < 1:
        raise InputError("--passes and --concurrency must be at least 1")
    return ScoringOptions(
        judge_model=judge_model_settings(model=args.judge).model,
        runner=RunnerConfig(concurrency=args.concurrency),
        settings=MeasurementSettings(
            denoise=DenoiseConfig(n_runs=args.passes, min_n_runs=args.passes),
            defence=(getattr(args, "defence", "on") == "on") if defence is None else defence,
        ),
    )


def slice_text(
    manifest: CalibrationManifest, n: int, total: int, traits: list[str], passes: int
) -> str:
    which = f"the first {n} of {total} items in file order" if n < total else f"all {total} items"
    return f"{which} of {manifest.name}; traits {', '.join(traits)}; {passes} passes per trait"


def run_calibrate(args: argparse.Namespace) -> int:
    if args.from_store:
        return calibrate_from_store(args)
    if args.set is None:
        raise CalibrationSetError(
            "name a calibration set (casino, dices, a manifest) or use --from-store"
        )
    manifest = load_manifest(args.set)
    traits = chosen_traits(manifest, args.traits)
    if args.limit is not None and args.limit < 1:
        raise CalibrationSetError("--limit must be at least 1")
    everything = import_set(manifest, args.data or default_data_path(manifest))
    items = everything[: args.limit] if args.limit else everything
    out: Path = args.out or Path("calibration") / manifest.name
    text = slice_text(manifest, len(items), len(everything), traits, args.passes)
    model = scoring_options(args).judge_model
    width = args.passes * len(judge_spec(model).models)
    scope = ReportScope(traits=traits, n_passes=width, judge_model=model, slice_text=text)
    sides = {
        defence: calibrate_side(args, manifest, items, scope, defence=defence, out=folder)
        for defence, folder in defence_folders(args.defence, out)
    }
    if len(sides) == 2:
        modes = [mode for mode, _ in mode_folders(args.pass_score, out)]
        comparison = compare_defence(items, manifest, sides[False], sides[True], scope, modes=modes)
        write_comparison(out / "defence", comparison, render_defence, "defence off against on")
    return 0


def calibrate_side(
    args: argparse.Namespace,
    manifest: CalibrationManifest,
    items: list[CalibrationItem],
    scope: ReportScope,
    *,
    defence: bool,
    out: Path,
) -> JudgedPasses:
    """Judge the items with the defence on or off and write that side's reports under ``out``."""
    options = scoring_options(args, defence=defence)
    # one judging serves every mode: each pass keeps its written score and its expected value
    judged = judge_with_progress(
        items, list(scope.traits), options, out / "passes.jsonl", show=show_progress(args)
    )
    note = judge_spec(options.judge_model).note
    folders = mode_folders(args.pass_score, out)
    for mode, folder in folders:
        passes = rescored(judged, mode)
        report = build_report(
            items, manifest, passes, scope, judge_note=note, threshold=args.threshold
        )
        report.pass_score = mode
        write_outputs(folder, report, items, manifest, passes, scope)
        print(
            f"calibration report: {folder / 'report.md'} ({folder / 'report.html'}, {folder / 'report.json'})"
        )
    if len(folders) > 1:
        comparison = compare_modes(items, manifest, judged, scope)
        write_comparison(out / "modes", comparison, render_modes, "sampled against expected")
    return judged


def write_comparison(stem: Path, comparison: Any, render: Callable[[Any], str], what: str) -> None:
    stem.with_suffix(".json").write_text(comparison.model_dump_json(indent=2) + "\n", "utf-8")
    stem.with_suffix(".md").write_text(render(comparison), encoding="utf-8")
    print(f"{what}: {stem.with_suffix('.md')}")


def calibrate_from_store(args: argparse.Namespace) -> int:
    """The owners' labels against each era's stored passes (docs/calibration.md, "Owners label")."""
    if args.set is not None:
        raise CalibrationSetError("--from-store reads the store: name no set with it")
    with transaction(make_engine(database_url(args.database_url))) as session:
        found = owners_set(session)
    labelled = traits_of(found.items)
    traits = [t.strip() for t in args.traits.split(",")] if args.traits else labelled
    unknown = sorted(set(traits) - set(labelled))
    if unknown:
        raise CalibrationSetError(f"no owner has labelled {unknown}; labelled traits: {labelled}")
    out: Path = args.out or Path("calibration") / "owners"
    for era_id in found.era_order:
        write_era_report(out / era_id, found, era_id, traits, args.threshold)
        print(f"calibration report: {out / era_id / 'report.md'} (era {era_id})")
    if not found.era_order:
        print("no labelled run has a scorecard yet: nothing to report", file=sys.stderr)
    return 0


def write_era_report(
    out: Path, found: OwnersSet, era_id: str, traits: list[str], threshold: float
) -> None:
    """One era's report over the labelled runs it scored."""
    cards = found.cards[era_id]
    items = [i for i in found.items if i.item_id in cards]
    present = [t for t in traits if any(lab.label == t for i in items for lab in i.labels)]
    manifest = owners_manifest(present or traits)
    passes = card_passes(cards.values())
    model = next(iter(cards.values())).judge_model
    text = f"the owners' labels kept in the store; era {era_id}"
    scope = ReportScope(
        traits=present, n_passes=passes_width(passes), judge_model=model, slice_text=text
    )
    report = build_report(items, manifest, passes, scope, threshold=threshold)
    write_outputs(out, report, items, manifest, passes, scope)


def judge_with_progress(
    items: list[CalibrationItem],
    traits: list[str],
    options: ScoringOptions,
    store: Path,
    *,
    show: bool,
) -> JudgedPasses:
    # stdout is for the command's own output; a library's prints go to stderr
    with progress_bar(show, "calibrate") as tick, contextlib.redirect_stdout(sys.stderr):
        return judge_items_sync(
            items,
            rubrics=default_rubric_set().select(traits),
            options=options,
            backend=backend_for(judge_spec(options.judge_model)),
            store=PassStore(store, options.judge_model, prompt_version_for(options.settings)),
            tick=tick,
        )


def write_outputs(
    out: Path,
    report: Any,
    items: list[CalibrationItem],
    manifest: CalibrationManifest,
    passes: JudgedPasses,
    scope: ReportScope,
) -> None:
    write_report_files(out, report, render_markdown(report), render_html(report))
    traits = scope.traits
    write_jsonl(out / "judge_scores.jsonl", judge_rows(items, passes, traits, scope.judge_model))
    write_jsonl(out / "human_scores.jsonl", human_rows(items, manifest, traits))


def write_report_files(out: Path, report: Any, markdown: str, html: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    (out / "report.md").write_text(markdown + "\n", encoding="utf-8")
    (out / "report.html").write_text(html, encoding="utf-8")


def render_comparison(c: RaterComparison) -> str:
    lines = [
        f"A: {c.rater_a}",
        f"B: {c.rater_b}",
        f"paired on (item, seat, trait); only in A: {c.only_in_a}, only in B: {c.only_in_b}",
        "",
    ]
    for t in c.traits:
        lines.append(
            f"{t.trait}: n={t.n_paired} spearman={_n(t.spearman)} kendall={_n(t.kendall_tau_b)} "
            f"mae={_n(t.mae)} bias(A-B)={_n(t.bias)} disagreements={t.n_disagreements}"
        )
    lines += ["", f"disagreements (|A - B| >= {c.threshold}), largest first:"]
    for d in c.disagreements:
        lines += [
            f"- {d.item_id} {d.seat} {d.trait}: A {_n(d.judge_score)} vs B {_n(d.human_score)}",
            f"    A: {d.judge_verdict}",
            f"    B: {d.human_verdict}",
        ]
    return "\n".join(lines)


def _n(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def run_agreement(args: argparse.Namespace) -> int:
    rows_a, rows_b = read_jsonl(args.a, ScoreRow), read_jsonl(args.b, ScoreRow)
    comparison = compare(
        rows_a, rows_b, threshold=args.threshold, source_a=str(args.a), source_b=str(args.b)
    )
    print(
        json.dumps(comparison.model_dump(mode="json"), indent=2)
        if args.json
        else render_comparison(comparison)
    )
    return 0
