"""A calibration report for people: Markdown, and an HTML page with inline SVG plots, both
from the same tables and lines."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from markupsafe import Markup

from judge.core.domain.interval import Interval
from judge.engine.calibration import plots
from judge.engine.calibration.report_model import CalibrationReport, Disagreement, TraitAgreement

if TYPE_CHECKING:
    from jinja2 import Environment

TINY_JUDGE_WARNING = (
    "**The judge here is the tiny embedded SmolLM2-135M model.** It makes the product work "
    "offline; its judgement is weak and its agreement with people is expected to be poor. Read "
    "its figures beside the human ceiling, and calibrate a capable model before trusting scores."
)
CEILING_TEXT = (
    "The human ceiling is each human rater against the mean of the other raters, by the same "
    "statistic the judge is read with; a judge is read against that, not against 1.0."
)
QUEUE_TEXT = "Each row is a place where the rubric leaves the verdict to the rater."


class Table(NamedTuple):
    """A report table as text: its header cells and its rows of cells."""

    header: Sequence[str]
    rows: Sequence[Sequence[str]]


def markdown_table(table: Table) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return "|" + "|".join(f" {cell} " if cell else " " for cell in cells) + "|"

    return [line(table.header), "|---" * len(table.header) + "|", *map(line, table.rows)]


def bullets(lines: Sequence[str]) -> list[str]:
    return [f"- {line}" for line in lines]


@lru_cache(maxsize=2)
def report_environment(*packages: str) -> Environment:
    """The Jinja2 environment (autoescaping) of an HTML report: each of ``packages``'
    ``templates``, then this package's (the layout ``_report.html``); imported on first use."""
    from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined

    loaders = [PackageLoader(package) for package in (*packages, "judge.engine.calibration")]
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = num
    return env


def num(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def interval(e: Interval) -> str:
    if e.estimate is None:
        return "n/a"
    ci = f" [{num(e.low)}, {num(e.high)}]" if e.low is not None else " [n/a]"
    return f"{num(e.estimate)}{ci}"


def agreement_table(t: TraitAgreement) -> Table:
    j, c = t.judge, t.ceiling

    def ceiling(value: float | None) -> str:
        return num(value) if c.measurable else "not measurable"

    rows = [
        ["Spearman rho [95% bootstrap]", interval(j.spearman), ceiling(c.spearman)],
        ["Kendall tau-b [95% bootstrap]", interval(j.kendall_tau_b), ceiling(c.kendall_tau_b)],
        [
            "quadratic-weighted kappa",
            num(j.quadratic_weighted_kappa),
            ceiling(c.quadratic_weighted_kappa),
        ],
        ["MAE (0..1)", num(j.mae), ceiling(c.mae)],
        ["bias (judge - human)", num(j.bias, 3), ""],
    ]
    return Table(["statistic", "judge vs human mean", "human ceiling (leave-one-out)"], rows)


def alpha_table(t: TraitAgreement) -> Table:
    raters = [
        ("humans alone", t.alpha_humans),
        ("humans + judge as one more rater", t.alpha_humans_and_judge),
    ]
    rows = [[name, num(a.nominal, 3), num(a.ordinal, 3), num(a.interval, 3)] for name, a in raters]
    return Table(["Krippendorff's alpha", "nominal", "ordinal", "interval"], rows)


def pass_bullets(t: TraitAgreement) -> list[str]:
    p, d = t.passes, t.denoising
    spread = (
        f"passes: {p.passes_per_item} per item; {p.items_identical}/{p.items} items with all passes "
        f"identical; mean within-item SD {num(p.mean_sd, 3)} (max {num(p.max_sd, 3)}); "
        f"unscored passes {p.unscored_passes}"
    )
    gain = (
        f"denoising gain ({d.statistic}): one pass {num(d.single_pass)} -> mean of passes "
        f"{num(d.averaged)} = gain {num(d.gain, 3)}"
    )
    return [spread, gain, *baseline_bullets(t)]


def baseline_bullets(t: TraitAgreement) -> list[str]:
    """The judge against each reference label, and the no-model baseline when there is one."""
    lines = [
        f"against the {r.reference}: judge Spearman {interval(r.judge.spearman)}, "
        f"kappa {num(r.judge.quadratic_weighted_kappa)}; human panel vs {r.reference}: kappa {num(r.panel_kappa)}"
        for r in t.references
    ]
    if t.objective_baseline_spearman is not None:
        lines.append(
            f"no-model baseline (the seat's partial-credit share): Spearman {num(t.objective_baseline_spearman)}"
        )
    return lines


def human_label(t: TraitAgreement) -> str:
    return (
        f"Human label: {t.question} ({t.scale_level}, {t.scale_points} points). "
        f"{t.n_judged} of {t.n_items} labelled seats judged."
    )


def trait_section(t: TraitAgreement) -> list[str]:
    note = [f"_{t.note}_", ""] if t.note else []
    ceiling = [f"No human ceiling: {t.ceiling.note}.", ""] if t.ceiling.note else []
    head = [f'## {t.trait} vs "{t.label}"', "", human_label(t), "", *note]
    agreement = [*markdown_table(agreement_table(t)), "", *ceiling]
    return head + agreement + markdown_table(alpha_table(t)) + ["", *bullets(pass_bullets(t)), ""]


def queue_heading(report: CalibrationReport) -> str:
    return (
        f"Disagreement queue (|judge - humans| >= {report.disagreement_threshold}; "
        f"{len(report.disagreements)} in all, largest first)"
    )


def queue_table(items: Sequence[Disagreement], limit: int = 15) -> Table:
    header = ["item", "seat", "trait", "judge", "humans", "judge's reason", "human votes"]
    return Table(header, [queue_row(d) for d in items[:limit]])


def queue_row(d: Disagreement) -> list[str]:
    reason = d.judge_verdict.replace("|", "/").replace("\n", " ")[:140]
    votes = d.human_verdict.replace("|", "/")[:120]
    return [d.item_id, d.seat, d.trait, num(d.judge_score), num(d.human_score), reason, votes]


def head_bullets(report: CalibrationReport) -> list[str]:
    s = report.set
    return [
        (
            f"judge: `{report.judge_model}`, {report.passes_per_trait} passes per trait, "
            f"each counting with its {report.pass_score} score"
        ),
        f"slice: {report.slice}",
        f"source: {s.source} (licence {s.licence})",
        f"cite: {s.citation}",
    ]


def render_markdown(report: CalibrationReport) -> str:
    lines = [f"# Calibration: {report.set.title}", ""]
    if report.judge_note:
        lines += [TINY_JUDGE_WARNING, ""]
    lines += [*bullets(head_bullets(report)), "", CEILING_TEXT, ""]
    for t in report.traits:
        lines += trait_section(t)
    lines += [f"## {queue_heading(report)}", "", QUEUE_TEXT, ""]
    return "\n".join([*lines, *markdown_table(queue_table(report.disagreements)), ""])


def trait_plots(report: CalibrationReport, t: TraitAgreement) -> list[Markup]:
    """The trait's scatter and pass spread as inline SVG; none without matplotlib."""
    if not plots.plots_available():
        return []
    drawn = [plots.scatter_svg(report, [t]), plots.spread_svg(report, [t])]
    return [Markup(plots.inline_svg(svg)) for svg in drawn]


def render_html(report: CalibrationReport) -> str:
    template = report_environment().get_template("calibration.html")
    return template.render(
        report=report,
        warning=TINY_JUDGE_WARNING.replace("**", ""),
        head=head_bullets(report),
        ceiling_text=CEILING_TEXT,
        queue_text=QUEUE_TEXT,
        missing=plots.MISSING,
        human_label=human_label,
        agreement_table=agreement_table,
        alpha_table=alpha_table,
        pass_bullets=pass_bullets,
        trait_plots=trait_plots,
        queue_heading=queue_heading(report),
        queue=queue_table(report.disagreements),
    )
