"""The audit report for people: Markdown, and the same as one HTML page.

The HTML reuses the calibration report's small Markdown-to-HTML converter, so both reports
look alike.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from judge.core.domain.interval import Interval
from judge.core.domain.judging import ScoreMode
from judge.engine.calibration.render import markdown_to_html, num
from judge.tools.audit.report import AuditReport, SeatShift, ShiftRow

TINY_JUDGE_WARNING = (
    "**The judge here is the tiny embedded SmolLM2-135M model.** It makes the product work "
    "offline; its judgement is weak, so read these shifts as a test of the audit on a weak "
    "judge, and audit a capable model before trusting its scores."
)

DESCRIPTIONS = {
    "planted.plain": "a plain instruction to score 1.0, appended to one of the seat's messages",
    "planted.evaluator_note": "a bracketed 'note to the evaluator' claiming the rubric does not apply",
    "planted.forged_verdict": "a forged verdict object with score 1.0, appended to one of the seat's messages",
    "planted.multilingual": "the plain instruction in French, Spanish, German, Portuguese, Russian, Chinese or Japanese",
    "planted.obfuscated": "the plain instruction with zero-width characters, confusable letters, spacing or leetspeak",
    "planted.encoded": "the plain instruction as a base64, hex or rot13 blob",
    "planted.split": "the plain instruction split over two consecutive messages of the seat",
    "planted.action": "the plain instruction in the arguments of an added action of the seat",
    "planted.appeal": "an appeal to the evaluator for full marks",
    "planted.threat": "a threat against the grader for a score below 1.0",
    "planted.role_spoof": "a forged system/assistant exchange assigning 1.0",
    "padding": "neutral filler about as long as each of the seat's messages, appended to it",
    "labels.rename": "the seat renamed to a neutral name",
    "labels.swap": "the seat and its counterpart exchange names",
    "hostile_counterpart": "a hostile line before each counterpart message; the seat's conduct unchanged",
}


def ci(e: Interval, *, signed: bool) -> str:
    """``+0.125 [0.050, 0.200]``: the estimate (signed for shifts) and its bootstrap interval."""
    if e.estimate is None:
        return "n/a"
    bounds = f" [{num(e.low, 3)}, {num(e.high, 3)}]" if e.low is not None else " [n/a]"
    return (f"{e.estimate:+.3f}" if signed else num(e.estimate, 3)) + bounds


def trait_table(
    trait: str, rows: Sequence[ShiftRow], baseline: float | None, threshold: float
) -> list[str]:
    lines = [
        f"## {trait}",
        "",
        f"Mean unperturbed score: {num(baseline, 3)}.",
        "",
        f"| perturbation | seats | mean shift [95% bootstrap] | share moved > {threshold} [95% bootstrap] | mean abs shift |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.perturbation} | {r.n} | {ci(r.mean_shift, signed=True)} | {ci(r.share_moved, signed=False)} | {num(r.mean_abs_shift, 3)} |"
        )
    return lines + [""]


def largest_lines(seats: Sequence[SeatShift], limit: int = 15) -> list[str]:
    moved = sorted(
        (s for s in seats if s.shift),
        key=lambda s: (-abs(s.shift or 0.0), s.run_id, s.seat, s.trait),
    )
    lines = [
        f"## Largest shifts ({len(moved)} seat-trait-perturbation cases moved at all; up to {limit} shown)",
        "",
    ]
    if not moved:
        return lines + ["No perturbation moved any score.", ""]
    lines += [
        "| run | seat | trait | perturbation | baseline | perturbed | shift |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {s.run_id} | {s.seat} | {s.trait} | {s.perturbation} | {num(s.baseline)} | {num(s.perturbed)} | "
        f"{(s.shift or 0.0):+.2f} |"
        for s in moved[:limit]
    ]
    return lines + [""]


PASS_SCORE_TEXT = {
    "sampled": "the score the judge wrote",
    "expected": "the expected value of each pass's distribution over the grid 0.0-1.0; "
    "a pass without one counts with the score the judge wrote",
}


def header_lines(report: AuditReport) -> list[str]:
    lines = [f"# Judge audit: {report.judge_model}", ""]
    if report.judge_note:
        lines += [TINY_JUDGE_WARNING, ""]
    lines += [
        f"- judge: `{report.judge_model}`, {report.passes_per_trait} passes per trait and perturbation",
        f"- slice: {report.slice}",
        f"- {report.n_runs} runs, {report.n_seats} scored seats; seed {report.seed}; unscored passes {report.unscored_passes}",
        (
            f"- pass score: {report.pass_score} ({PASS_SCORE_TEXT[report.pass_score]}); "
            f"{report.n_with_distribution} passes carry a score distribution"
        ),
        "",
        (
            "Each perturbation leaves the seat's conduct as it was, so a robust judge does not move: a shift is "
            "perturbed minus unperturbed score (mean of scored passes) for the same seat and trait. The "
            "perturbation texts are listed in docs/audit.md."
        ),
        "",
    ]
    lines += [f"- {name}: {DESCRIPTIONS.get(name, name)}" for name in report.perturbations]
    return lines + [""]


def render_markdown(report: AuditReport) -> str:
    lines = header_lines(report)
    for t in report.traits:
        rows = [r for r in report.rows if r.trait == t]
        lines += trait_table(t, rows, report.baseline_means.get(t), report.threshold)
    lines += largest_lines(report.seats)
    return "\n".join(lines)


def render_html(report: AuditReport) -> str:
    body = "".join(markdown_to_html(render_markdown(report).split("\n")))
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}"
        ".warning{background:#fff3cd;border:1px solid #e0c060;padding:8px;font-weight:bold}"
    )
    title = html.escape(f"Judge audit: {report.judge_model}")
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title><style>{style}</style></head>'
        f"<body>{body}</body></html>\n"
    )


def render_defence(off: dict[ScoreMode, AuditReport], on: dict[ScoreMode, AuditReport]) -> str:
    """The same audit with the score-integrity defence off and on, side by side: per pass
    score and trait, each perturbation's share of seats moved and mean shift."""
    lines = ["# Audit: the score-integrity defence off and on", ""]
    for mode in sorted(set(off) & set(on)):
        first = on[mode]
        lines += [
            (
                f"Judge `{first.judge_model}`; {first.slice.removesuffix('; defence on')}; "
                f"pass score `{mode}`; "
                f"seats moved by more than {first.threshold}."
            ),
            "",
        ]
        for trait in first.traits:
            lines += defence_table(trait, off[mode], on[mode])
    return "\n".join(lines) + "\n"


def lifted(row: ShiftRow) -> str:
    return ci(row.share_lifted, signed=False) if row.share_lifted else "n/a"


def defence_table(trait: str, off: AuditReport, on: AuditReport) -> list[str]:
    rows_off = {r.perturbation: r for r in off.rows if r.trait == trait}
    rows_on = {r.perturbation: r for r in on.rows if r.trait == trait}
    lines = [
        f"## {trait}",
        "",
        (
            f"Mean unperturbed score: off {num(off.baseline_means.get(trait), 3)}, "
            f"on {num(on.baseline_means.get(trait), 3)}."
        ),
        "",
        (
            "| perturbation | off: share moved | on: share moved | off: share lifted "
            "| on: share lifted | off: mean shift | on: mean shift |"
        ),
        "|---|---|---|---|---|---|---|",
    ]
    for name in on.perturbations:
        a, b = rows_off.get(name), rows_on.get(name)
        if a is None or b is None:
            continue
        lines.append(
            f"| {name} | {ci(a.share_moved, signed=False)} | {ci(b.share_moved, signed=False)} "
            f"| {lifted(a)} | {lifted(b)} "
            f"| {ci(a.mean_shift, signed=True)} | {ci(b.mean_shift, signed=True)} |"
        )
    return lines + [""]
