"""Selective escalation on the calibration sets, from the embedded judge's committed pass stores
and the sets' own human labels (docs/escalation.md, "On a calibration set"): per labelled trait
and pass score, the coverage-agreement curve and what each target from 0.5 to 0.8 makes of it.
``python -m tests.tools.cli.escalation_sets NAME`` (``casino-test`` or ``dices-350``) prints the
report committed at reports/escalation/NAME.md, through the code `judge escalation curve|set
TRAIT --set SET --passes PATH` runs; tests/tools/cli/test_escalation_sets.py checks it."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from judge.core.domain.escalation import CurvePoint, EscalationTargetCreate, TraitEscalation
from judge.core.domain.judging import SCORE_MODES, ScoreMode
from judge.core.scoring import escalation as rules
from judge.core.scoring.escalation import JudgedItem
from judge.engine.calibration.manifest import load_manifest
from judge.engine.calibration.runner import read_judging
from judge.server.service import escalation as service
from judge.tools.cli.escalation import SetItems, calibration_items
from tests.server.service.escalation_example import TARGETS, at_deciles

REPO = Path(__file__).resolve().parents[3]
RISK = 0.1
SEED = 0


class SetReport(NamedTuple):
    """One committed report: the calibration set and the pass store it reads."""

    set_name: str
    passes: Path
    what: str

    @property
    def passes_text(self) -> str:
        return str(self.passes.relative_to(REPO))


REPORTS = {
    "casino-test": SetReport(
        "casino",
        REPO / "reports" / "calibration" / "casino-test" / "passes.jsonl",
        "the CaSiNo test dialogues",
    ),
    "dices-350": SetReport(
        "dices",
        REPO / "reports" / "calibration" / "dices-350" / "passes.jsonl",
        "the DICES-350 conversations",
    ),
}


def report_path(name: str) -> Path:
    return REPO / "reports" / "escalation" / f"{name}.md"


def judged_traits(found: SetReport) -> tuple[list[str], list[str]]:
    """The set's labelled traits the pass store judged, and those it did not."""
    manifest = load_manifest(found.set_name)
    judged = {trait for (_, _, trait) in read_judging(found.passes).passes}
    return [t for t in manifest.traits if t in judged], [
        t for t in manifest.traits if t not in judged
    ]


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _curve_row(p: CurvePoint, items: Sequence[JudgedItem]) -> str:
    keep = rules.kept(items, p.threshold)
    bound = rules.lower_bound(sum(i.agreed for i in keep), len(keep), RISK)
    return (
        f"| {p.threshold:.3f} | {p.coverage:.2f} | {p.n_kept} | {_num(p.agreement)} | {bound:.2f} |"
    )


def _target_row(t: TraitEscalation) -> str:
    threshold = "none" if t.threshold is None else f"{t.threshold:.3f}"
    met = "yes" if t.held_out_meets_target else "no"
    return (
        f"| {t.target:g} | {threshold} | {t.selection.coverage:.2f} | {t.held_out.coverage:.2f} "
        f"| {_num(t.held_out.agreement)} | {met} | {t.note} |"
    )


def targets(found: SetItems, trait: str) -> list[TraitEscalation]:
    return [
        service.evaluate(
            found.items,
            trait=trait,
            body=EscalationTargetCreate(target=t, risk=RISK, seed=SEED),
            by="owner:report",
            measure=found.measure,
        )
        for t in TARGETS
    ]


def _share(items: Sequence[JudgedItem]) -> float:
    return sum(i.agreed for i in items) / len(items)


def plainly(trait: str, mode: ScoreMode, found: SetItems, chosen: list[TraitEscalation]) -> str:
    """What the trait's figures show, in words."""
    items = found.items
    tenth = at_deciles(rules.curve(items))[0]
    reached = [t for t in chosen if t.reachable]
    head = (
        f"- **{trait}, {mode} score**: agreement {_share(items):.2f} on all {len(items)} seats, "
        f"{_num(tenth.agreement)} on the surest tenth; "
    )
    placed = {rules.on_anchor(i.judge, i.anchors) for i in items}
    if len(placed) == 1:
        head += (
            f"every verdict falls on the point {placed.pop():g}, so that agreement is only the "
            "share of seats whose humans fall there too; "
        )
    if reached:
        parts = [
            f"{t.target:g} at threshold {t.threshold:.3f} (held-out coverage "
            f"{t.held_out.coverage:.2f}, agreement {_num(t.held_out.agreement)}, target "
            f"{'met' if t.held_out_meets_target else 'NOT met'})"
            for t in reached
        ]
        missed = [f"{t.target:g}" for t in chosen if not t.reachable]
        tail = f"; not reachable: {', '.join(missed)}" if missed else ""
        return head + "reachable: " + "; ".join(parts) + tail + "."
    text = (
        f"no target from {TARGETS[0]:g} to {TARGETS[-1]:g} is reachable, so every seat would "
        "escalate to the owners."
    )
    selection = rules.split_by_run(items, SEED).selection
    whole = rules.figures(selection, 0.0, RISK).lower_bound or 0.0
    beaten = [f"{t.target:g}" for t in chosen if whole >= t.target]
    if beaten:
        text += (
            f" Yet all {len(selection)} selection seats together bound their agreement at "
            f"{whole:.2f}, above {', '.join(beaten)}: the judge as a whole would meet "
            f"{'that target' if len(beaten) == 1 else 'those targets'}, but its confidence does "
            "not put its right verdicts first, and the search, which tests the surest seats "
            "first and stops at the first failure, can vouch for no threshold."
        )
    return head + text


def on_points(values: Sequence[float], points: Sequence[float]) -> str:
    """How many of ``values`` fall on each point, e.g. ``0: 12, 0.5: 3, 1: 185``."""
    placed = [rules.on_anchor(v, points) for v in values]
    return ", ".join(f"{p:g}: {placed.count(p)}" for p in points)


def section(trait: str, mode: ScoreMode, found: SetItems, chosen: list[TraitEscalation]) -> str:
    split = rules.split_by_run(found.items, SEED)
    points = found.items[0].anchors
    lines = [
        f"## {trait} against `{found.label}`, {mode} pass score",
        "",
        (
            f"{len(found.items)} seats of {len({i.run_id for i in found.items})} runs; split by "
            f"run with seed {SEED}: {len(split.selection)} selection, {len(split.held_out)} held "
            "out."
        ),
        "",
        (
            f"Seats on each scale point: judge {on_points([i.judge for i in found.items], points)}; "
            f"humans {on_points([i.owners for i in found.items], points)}."
        ),
        "",
        (
            "Coverage-agreement curve on all seats (first point at each tenth of coverage; the "
            f"bound is Clopper-Pearson at {1 - RISK:g}):"
        ),
        "",
        "| threshold | coverage | kept | agreement | lower bound |",
        "|---|---|---|---|---|",
        *(_curve_row(p, found.items) for p in at_deciles(rules.curve(found.items))),
        "",
        (
            "Targets (risk 0.1, chosen on the selection runs, coverage and agreement on the held-out "
            "runs):"
        ),
        "",
        (
            "| target | threshold | selection coverage | held-out coverage | held-out agreement "
            "| met | note |"
        ),
        "|---|---|---|---|---|---|---|",
        *(_target_row(t) for t in chosen),
        "",
    ]
    return "\n".join(lines)


def judge_line(model: str, passes: str, width: int) -> str:
    if width == 1:
        return (
            f"- judge: `{model}`, its committed pass store `{passes}` (one pass per seat and "
            "trait, with its grid distribution, so confidence is 1 - entropy / log2(11))"
        )
    return f"- judge: `{model}`, its committed pass store `{passes}` (up to {width} passes)"


def report(name: str, data: Path | None = None) -> str:
    """The report's Markdown, computed afresh from the pass store and the set's labels."""
    found = REPORTS[name]
    traits, unjudged = judged_traits(found)
    judged = read_judging(found.passes)
    per = {
        (trait, mode): calibration_items(found.set_name, found.passes, trait, data=data, mode=mode)
        for trait in traits
        for mode in SCORE_MODES
    }
    chosen = {key: targets(items, key[0]) for key, items in per.items()}
    first = next(iter(per.values()))
    width = max(len(p) for p in judged.passes.values())
    lines = [
        f"# Selective escalation on {found.what} ({', '.join(traits)})",
        "",
        (
            f"Generated by `python -m tests.tools.cli.escalation_sets {name}` "
            "(docs/escalation.md); the same figures come from `judge escalation curve TRAIT "
            f"--set {found.set_name} --passes {found.passes_text}` and `judge escalation set "
            "TRAIT --target T` with the same options."
        ),
        "",
        judge_line(judged.stamp.judge_model, found.passes_text, width),
        (
            f"- human side: the set's panel mean of the label; agreement is {first.measure}: the "
            "judge's mean and the panel mean, each put on the nearest point (ties up), are equal"
        ),
        (
            "- pass score: `sampled` (the score the judge wrote, the default) and `expected` (the "
            "mean of its grid distribution), both from the same passes"
        ),
    ]
    if unjudged:
        lines.append(
            f"- labelled but not in the pass store, so not reported: {', '.join(unjudged)}"
        )
    lines += ["", "## What it shows", ""]
    lines += [plainly(t, m, per[(t, m)], chosen[(t, m)]) for (t, m) in per]
    if not any(t.reachable for found_targets in chosen.values() for t in found_targets):
        lines += [
            "",
            (
                f"In short: with this judge no target from {TARGETS[0]:g} to {TARGETS[-1]:g} is "
                "reachable for any trait or pass score here; escalation would hand every seat to the "
                "owners, and the service says so instead of storing a threshold."
            ),
        ]
    lines += [
        "",
        (
            "A target is refused, never faked, when the Clopper-Pearson bound of the surest seats "
            "of the selection runs falls below it (docs/escalation.md)."
        ),
        "",
    ]
    lines += [section(t, m, per[(t, m)], chosen[(t, m)]) for (t, m) in per]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(sys.argv[1]), end="")
