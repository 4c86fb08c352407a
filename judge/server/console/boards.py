"""Console pages over many runs: leaderboards, the matched comparison of two agents, and the
committed calibration reports with their plots."""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from judge.core.domain.comparison import AgentComparison, ComparedPair
from judge.core.errors import InputError, NotFoundError
from judge.engine.calibration import plots
from judge.engine.packs import default_rubric_set
from judge.engine.settings import Settings
from judge.server.console.listing import filter_choices
from judge.server.console.render import page, svg
from judge.server.console.reports import load_report, reports_in_order
from judge.server.console.session import SessionDep as ConsoleDep
from judge.server.request_scope import SessionDep, SettingsDep
from judge.server.service.config_views import eras as stored_eras
from judge.server.service.leaderboards import leaderboard
from judge.server.service.matched import NoStateOutcomes, compare_agents
from judge.server.service.pairwise import (
    PairwiseComparisonResult,
    stored_comparison,
    stored_position_biases,
)

router = APIRouter(prefix="/console", include_in_schema=False)


@router.get("/leaderboards")
def leaderboards(request: Request, console: ConsoleDep, session: SessionDep) -> HTMLResponse:
    scenarios = filter_choices(session)["scenario"]
    scenario = request.query_params.get("scenario") or (scenarios[0] if scenarios else None)
    era = request.query_params.get("era") or None
    board = leaderboard(session, scenario_id=scenario, era_id=era) if scenario else None
    return page(
        request,
        "leaderboards.html",
        console=console,
        scenarios=scenarios,
        scenario=scenario,
        era=era,
        eras=[e.era_id for e in stored_eras(session)],
        board=board,
    )


@router.get("/compare")
def compare(
    request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    params = request.query_params
    a, b, trait = (params.get(name) or "" for name in ("agent_a", "agent_b", "trait"))
    scenario = params.get("scenario") or None
    result, error, note = matched(session, a, b, scenario)
    return page(
        request,
        "compare.html",
        console=console,
        a=a,
        b=b,
        scenario=scenario or "",
        result=result,
        error=error,
        note=note,
        choices=filter_choices(session),
        deltas=scenario_deltas(result) if result else [],
        trait=trait,
        traits=sorted(default_rubric_set().rubrics),
        pairwise=stored_pairwise(session, a, b, trait, scenario, settings),
    )


class Matched(NamedTuple):
    """The paired state-check test, a mistake in the request, or a note on why there is none."""

    result: AgentComparison | None = None
    error: str | None = None
    note: str | None = None


def matched(session: Session, a: str, b: str, scenario: str | None) -> Matched:
    """The matched comparison of two agents, or why there is none (nothing: no agents yet);
    agents without runs with state checks are a note, not an error (the pairwise part of the
    page may still hold verdicts)."""
    if not (a and b):
        return Matched()
    try:
        found = compare_agents(
            session, agent_a=a, agent_b=b, scenario_id=scenario, measure="reward"
        )
    except NoStateOutcomes as exc:
        return Matched(note=str(exc))
    except InputError as exc:
        return Matched(error=str(exc))
    return Matched(result=found)


class PairwiseView(NamedTuple):
    comparison: PairwiseComparisonResult | None
    note: str | None


def stored_pairwise(
    session: Session, a: str, b: str, trait: str, scenario: str | None, settings: Settings
) -> PairwiseView | None:
    """The pairwise verdicts kept for the two agents on a trait (the page makes no judge
    call: verdicts are made with ``POST /api/evals/comparisons``)."""
    if not (a and b and trait):
        return None
    try:
        found = stored_comparison(
            session, agent_a=a, agent_b=b, trait=trait, scenario_id=scenario, settings=settings
        )
    except (InputError, NotFoundError) as exc:
        return PairwiseView(None, str(exc))
    return PairwiseView(found, None)


class ScenarioDelta(NamedTuple):
    scenario_id: str
    n_pairs: int
    mean_difference: float | None
    a_better: int
    b_better: int
    ties: int


def scenario_deltas(result: AgentComparison) -> list[ScenarioDelta]:
    """Per scenario: the scored pairs, their mean difference (A - B) and who did better."""
    grouped: dict[str, list[ComparedPair]] = defaultdict(list)
    for pair in result.pairs:
        grouped[pair.scenario_id].append(pair)
    deltas = []
    for scenario, pairs in sorted(grouped.items()):
        known = [p.difference for p in pairs if p.difference is not None]
        deltas.append(
            ScenarioDelta(
                scenario,
                len(pairs),
                sum(known) / len(known) if known else None,
                sum(p.better == "a" for p in pairs),
                sum(p.better == "b" for p in pairs),
                sum(p.better == "tie" for p in pairs),
            )
        )
    return deltas


@router.get("/calibration")
def calibration(request: Request, console: ConsoleDep, session: SessionDep) -> HTMLResponse:
    return page(
        request,
        "calibration.html",
        console=console,
        reports=reports_in_order(),
        biases=stored_position_biases(session),
        plots=plots.plots_available(),
        missing=plots.MISSING,
    )


@router.get("/calibration/{name}/{mode}/{plot}.svg")
def calibration_mode_plot(name: str, mode: str, plot: str, console: ConsoleDep) -> Response:
    """A plot of a report kept per pass-score mode (``dices-350/sampled``)."""
    return calibration_plot(f"{name}/{mode}", plot, console)


@router.get("/calibration/{name}/{plot}.svg")
def calibration_plot(name: str, plot: str, console: ConsoleDep) -> Response:
    draw = {"spread": plots.spread_svg, "scatter": plots.scatter_svg}.get(plot)
    if draw is None:
        raise NotFoundError(f"no plot named {plot!r}")
    return svg(draw(load_report(name)), max_age=300)
