"""A calibration report for people: Markdown, and an HTML page with inline SVG plots drawn
by matplotlib (:mod:`judge.engine.calibration.plots`)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from judge.core.domain.interval import Interval
from judge.engine.calibration import plots
from judge.engine.calibration.report_model import (
    CalibrationReport,
    Disagreement,
    TraitAgreement,
)

TINY_JUDGE_WARNING = (
    "**The judge here is the tiny embedded SmolLM2-135M model.** It makes the product work "
    "offline; its judgement is weak and its agreement with people is expected to be poor. Read "
    "its figures beside the human ceiling, and calibrate a capable model before trusting scores."
)


def num(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def interval(e: Interval) -> str:
    if e.estimate is None:
        return "n/a"
    ci = f" [{num(e.low)}, {num(e.high)}]" if e.low is not None else " [n/a]"
    return f"{num(e.estimate)}{ci}"


def trait_table(t: TraitAgreement) -> list[str]:
    j, c = t.judge, t.ceiling

    def ceiling(value: float | None) -> str:
        return num(value) if c.measurable else "not measurable"

    rows = [
        "| statistic | judge vs human mean | human ceiling (leave-one-out) |",
        "|---|---|---|",
        f"| Spearman rho [95% bootstrap] | {interval(j.spearman)} | {ceiling(c.spearman)} |",
        f"| Kendall tau-b [95% bootstrap] | {interval(j.kendall_tau_b)} | {ceiling(c.kendall_tau_b)} |",
        f"| quadratic-weighted kappa | {num(j.quadratic_weighted_kappa)} | {ceiling(c.quadratic_weighted_kappa)} |",
        f"| MAE (0..1) | {num(j.mae)} | {ceiling(c.mae)} |",
        f"| bias (judge - human) | {num(j.bias, 3)} | |",
    ]
    return rows


def alpha_lines(t: TraitAgreement) -> list[str]:
    h, w = t.alpha_humans, t.alpha_humans_and_judge
    return [
        "| Krippendorff's alpha | nominal | ordinal | interval |",
        "|---|---|---|---|",
        f"| humans alone | {num(h.nominal, 3)} | {num(h.ordinal, 3)} | {num(h.interval, 3)} |",
        f"| humans + judge as one more rater | {num(w.nominal, 3)} | {num(w.ordinal, 3)} | {num(w.interval, 3)} |",
    ]


def pass_lines(t: TraitAgreement) -> list[str]:
    p, d = t.passes, t.denoising
    lines = [
        (
            f"- passes: {p.passes_per_item} per item; {p.items_identical}/{p.items} items with all passes "
            f"identical; mean within-item SD {num(p.mean_sd, 3)} (max {num(p.max_sd, 3)}); "
            f"unscored passes {p.unscored_passes}"
        ),
        (
            f"- denoising gain ({d.statistic}): one pass {num(d.single_pass)} -> mean of passes "
            f"{num(d.averaged)} = gain {num(d.gain, 3)}"
        ),
    ]
    for r in t.references:
        lines.append(
            f"- against the {r.reference}: judge Spearman {interval(r.judge.spearman)}, "
            f"kappa {num(r.judge.quadratic_weighted_kappa)}; human panel vs {r.reference}: kappa {num(r.panel_kappa)}"
        )
    if t.objective_baseline_spearman is not None:
        lines.append(
            f"- no-model baseline (the seat's partial-credit share): Spearman {num(t.objective_baseline_spearman)}"
        )
    return lines


def trait_section(t: TraitAgreement) -> list[str]:
    head = [
        f'## {t.trait} vs "{t.label}"',
        "",
        (
            f"Human label: {t.question} ({t.scale_level}, {t.scale_points} points). "
            f"{t.n_judged} of {t.n_items} labelled seats judged."
        ),
        "",
    ]
    note = [f"_{t.note}_", ""] if t.note else []
    ceiling = [f"No human ceiling: {t.ceiling.note}.", ""] if t.ceiling.note else []
    return (
        head + note + trait_table(t) + [""] + ceiling + alpha_lines(t) + [""] + pass_lines(t) + [""]
    )


def queue_lines(items: Sequence[Disagreement], threshold: float, limit: int = 15) -> list[str]:
    lines = [
        f"## Disagreement queue (|judge - humans| >= {threshold}; {len(items)} in all, largest first)",
        "",
        "Each row is a place where the rubric leaves the verdict to the rater.",
        "",
        "| item | seat | trait | judge | humans | judge's reason | human votes |",
        "|---|---|---|---|---|---|---|",
    ]
    for d in items[:limit]:
        reason = d.judge_verdict.replace("|", "/").replace("\n", " ")[:140]
        lines.append(
            f"| {d.item_id} | {d.seat} | {d.trait} | {num(d.judge_score)} | {num(d.human_score)} | "
            f"{reason} | {d.human_verdict.replace('|', '/')[:120]} |"
        )
    return lines + [""]


def render_markdown(report: CalibrationReport) -> str:
    s = report.set
    lines = [f"# Calibration: {s.title}", ""]
    if report.judge_note:
        lines += [TINY_JUDGE_WARNING, ""]
    lines += [
        (
            f"- judge: `{report.judge_model}`, {report.passes_per_trait} passes per trait, "
            f"each counting with its {report.pass_score} score"
        ),
        f"- slice: {report.slice}",
        f"- source: {s.source} (licence {s.licence})",
        f"- cite: {s.citation}",
        "",
        (
            "The human ceiling is each human rater against the mean of the other raters, by the same "
            "statistic the judge is read with; a judge is read against that, not against 1.0."
        ),
        "",
    ]
    for t in report.traits:
        lines += trait_section(t)
    lines += queue_lines(report.disagreements, report.disagreement_threshold)
    return "\n".join(lines)


def _cells(line: str, tag: str) -> str:
    cells = [html.escape(c.strip()) for c in line.strip().strip("|").split("|")]
    return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def _block(line: str) -> str:
    text = html.escape(line.lstrip("#- ").strip())
    if line.startswith("#"):
        level = len(line) - len(line.lstrip("#"))
        return f"<h{level}>{text}</h{level}>"
    if line.startswith("- "):
        return f"<li>{text}</li>"
    if line.startswith("**"):
        return f'<p class="warning">{text.replace("**", "")}</p>'
    if line.startswith("_") and line.endswith("_"):
        return f"<p><em>{text.strip('_')}</em></p>"
    return f"<p>{text}</p>" if line.strip() else ""


def markdown_to_html(lines: Sequence[str]) -> list[str]:
    """The small Markdown subset the report uses: headings, tables, bullets, paragraphs."""
    out: list[str] = []
    table: list[str] = []
    for line in [*lines, ""]:
        if line.startswith("|"):
            if not set(line) <= set("|-"):
                table.append(_cells(line, "th" if not table else "td"))
            continue
        if table:
            out.append("<table>" + "".join(table) + "</table>")
            table = []
        block = _block(line)
        if block.startswith("<li>") and not (out and out[-1].endswith("</li>")):
            out.append("<ul>")
        elif not block.startswith("<li>") and out and out[-1].endswith("</li>"):
            out.append("</ul>")
        out.append(block)
    return [b for b in out if b]


def trait_plots(report: CalibrationReport, t: TraitAgreement) -> str:
    """The trait's judge-vs-human scatter and pass spread, drawn by matplotlib (when installed)."""
    if not plots.plots_available():
        return f'<p class="warning">{html.escape(plots.MISSING)}</p>'
    scatter = plots.inline_svg(plots.scatter_svg(report, [t]))
    spread = plots.inline_svg(plots.spread_svg(report, [t]))
    return f'<div class="plots">{scatter}{spread}</div>'


def render_html(report: CalibrationReport) -> str:
    body: list[str] = []
    head = markdown_to_html(render_markdown(report).split("\n## ")[0].split("\n"))
    body += head
    for t in report.traits:
        body += markdown_to_html(trait_section(t)) + [trait_plots(report, t)]
    body += markdown_to_html(queue_lines(report.disagreements, report.disagreement_threshold))
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}.plots svg{margin-right:1em}"
        ".warning{background:#fff3cd;border:1px solid #e0c060;padding:8px;font-weight:bold}"
    )
    title = html.escape(f"Calibration: {report.set.title}")
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title><style>{style}</style></head>'
        f"<body>{''.join(body)}</body></html>\n"
    )
