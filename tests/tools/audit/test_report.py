"""The audit statistics on hand-made scores: exact shifts, shares and intervals."""

from __future__ import annotations

from typing import Any

import pytest

from judge.core.domain.judging import JudgePass
from judge.core.domain.run import Run, parse_run
from judge.tools.audit.plan import AuditItem, audit_plan
from judge.tools.audit.render import render_defence, render_html, render_markdown
from judge.tools.audit.report import (
    AuditReport,
    JudgedPasses,
    build_report,
    lifted_by,
    seat_shifts,
)


def seat_run(run_id: str) -> Run:
    return parse_run(
        {
            "run_id": run_id,
            "scenario_id": "market",
            "seats": [
                {"seat": "buyer", "agent_id": "a"},
                {"seat": "seller", "agent_id": "b", "scored": False},
            ],
            "transcript": [
                {"turn": 1, "seat": "seller", "kind": "message", "content": "90 coins."},
                {"turn": 1, "seat": "buyer", "kind": "message", "content": "40."},
            ],
        }
    )


def judged(score: float | None, index: int = 0, trait: str = "negotiation") -> JudgePass:
    if score is None:
        return JudgePass(
            trait=trait,
            index=index,
            model="m",
            parse_status="unparseable",
            unscored_reason="no JSON",
        )
    return JudgePass(trait=trait, index=index, score=score, model="m", parse_status="ok")


def passes_for(
    plan: list[AuditItem], scores: dict[tuple[str, str], list[float | None]]
) -> JudgedPasses:
    """(run id, perturbation) -> pass scores, put under the plan's item ids."""
    out: dict[tuple[str, str, str], list[JudgePass]] = {}
    for item in plan:
        made = scores.get((item.run_id, item.perturbation), [])
        out[(item.item_id, item.judged_seat, "negotiation")] = [
            judged(s, n) for n, s in enumerate(made)
        ]
    return out


# baseline -> perturbed means: shifts +1.0, 0.0, -0.1, +0.1 (0.4 - 0.3 is 0.10000000000000003)
SCORES: dict[tuple[str, str], list[float | None]] = {
    ("r1", "baseline"): [0.0, 0.0],
    ("r1", "planted.plain"): [1.0, 1.0],
    ("r2", "baseline"): [0.0, 1.0, None],
    ("r2", "planted.plain"): [0.5, 0.5],
    ("r3", "baseline"): [1.0],
    ("r3", "planted.plain"): [0.9],
    ("r4", "baseline"): [0.3],
    ("r4", "planted.plain"): [0.4],
    ("r5", "baseline"): [0.5],
    ("r5", "planted.plain"): [None, None],
}


def report(
    scores: dict[tuple[str, str], list[float | None]],
    perturbations: tuple[str, ...] = ("planted.plain",),
    **kw: Any,
) -> AuditReport:
    runs = [seat_run(r) for r in sorted({k[0] for k in scores})]
    plan = audit_plan(runs, list(perturbations), seed=0)
    return build_report(
        plan,
        passes_for(plan, scores),
        traits=["negotiation"],
        perturbations=list(perturbations),
        judge_model="m",
        judge_note=None,
        slice_text="hand-made",
        seed=0,
        n_passes=2,
        **kw,
    )


def test_shifts_are_perturbed_minus_baseline_mean_of_scored_passes() -> None:
    shifts = {s.run_id: s for s in report(SCORES).seats}
    assert shifts["r1"].shift == 1.0
    assert (shifts["r2"].baseline, shifts["r2"].perturbed, shifts["r2"].shift) == (0.5, 0.5, 0.0)
    assert shifts["r3"].shift == pytest.approx(-0.1)
    assert shifts["r5"].perturbed is None and shifts["r5"].shift is None


def test_mean_shift_and_share_moved_more_than_a_tenth_are_exact() -> None:
    row = report(SCORES).rows[0]
    assert (row.trait, row.perturbation, row.n, row.n_left_out) == (
        "negotiation",
        "planted.plain",
        4,
        1,
    )
    assert row.mean_shift.estimate == pytest.approx(0.25)
    assert (
        row.share_moved.estimate == 0.25
    )  # only r1: a shift of exactly 0.1 is not "more than 0.1"
    assert row.mean_abs_shift == pytest.approx(0.3)


def test_intervals_contain_the_estimate_and_are_seeded() -> None:
    first, again = report(SCORES), report(SCORES)
    row = first.rows[0]
    for e in (row.mean_shift, row.share_moved):
        assert e.low is not None and e.high is not None and e.estimate is not None
        assert e.low <= e.estimate <= e.high and e.low < e.high
    assert first == again
    assert 0.0 <= row.share_moved.low <= row.share_moved.high <= 1.0  # type: ignore[operator]


def test_a_judge_that_never_moves_has_zero_shift_with_a_zero_width_interval() -> None:
    steady = {(r, p): [0.7, 0.7] for r in ("r1", "r2", "r3") for p in ("baseline", "planted.plain")}
    row = report(steady).rows[0]
    assert (row.mean_shift.estimate, row.mean_shift.low, row.mean_shift.high) == (0.0, 0.0, 0.0)
    assert (row.share_moved.estimate, row.share_moved.low, row.share_moved.high) == (0.0, 0.0, 0.0)


def test_counts_and_baseline_mean_and_unscored_passes() -> None:
    r = report(SCORES)
    assert (r.n_runs, r.n_seats, r.unscored_passes) == (5, 5, 3)
    assert r.baseline_means["negotiation"] == pytest.approx((0.0 + 0.5 + 1.0 + 0.3 + 0.5) / 5)


def test_no_scored_pair_gives_no_estimate_rather_than_zero() -> None:
    row = report({("r1", "baseline"): [None], ("r1", "planted.plain"): [0.5]}).rows[0]
    assert row.n == 0 and row.mean_shift.estimate is None and row.share_moved.estimate is None


def test_a_report_where_nothing_moved_says_so_in_markdown_and_html() -> None:
    r = report({("r1", "baseline"): [0.5], ("r1", "planted.plain"): [0.5]})
    assert "No perturbation moved any score." in render_markdown(r)
    assert "<p>No perturbation moved any score.</p>" in render_html(r)


def test_markdown_and_html_show_each_row_with_its_interval() -> None:
    r = report(SCORES)
    row = r.rows[0]
    md = render_markdown(r)
    line = next(x for x in md.splitlines() if x.startswith("| planted.plain |"))
    assert line == (
        f"| planted.plain | 4 | +0.250 [{row.mean_shift.low:.3f}, {row.mean_shift.high:.3f}] | "
        f"0.250 [{row.share_moved.low:.3f}, {row.share_moved.high:.3f}] | 0.300 |"
    )
    assert "| r1 | buyer | negotiation | planted.plain | 0.00 | 1.00 | +1.00 |" in md
    page = render_html(r)
    assert (
        page.startswith("<!doctype html>") and "<td>planted.plain</td><td>4</td><td>+0.250" in page
    )


# Ten seats, every baseline 0.0: planted.plain lifts r0-r3 (4 of 10), padding lifts r0-r1
# (2 of 10, the same seats), so the lift beyond neutral is 0.4 - 0.2 = 0.2.
TEN = [f"r{n}" for n in range(10)]
LIFTS: dict[tuple[str, str], list[float | None]] = {
    **{(r, "baseline"): [0.0] for r in TEN},
    **{(r, "planted.plain"): [1.0 if n < 4 else 0.0] for n, r in enumerate(TEN)},
    **{(r, "padding"): [1.0 if n < 2 else 0.05] for n, r in enumerate(TEN)},
}


def lift_report(scores: dict[tuple[str, str], list[float | None]] = LIFTS) -> AuditReport:
    return report(scores, ("planted.plain", "padding"))


def test_the_lift_is_the_familys_share_lifted_minus_the_neutral_share() -> None:
    r = lift_report()
    assert r.neutral == ["padding"]
    (row,) = r.lifts
    assert (row.trait, row.family, row.n) == ("negotiation", "planted.plain", 10)
    assert (row.family_lifted, row.neutral_lifted) == (0.4, 0.2)
    assert row.lift.estimate == pytest.approx(0.2)
    assert row.lift_unpaired.estimate == pytest.approx(0.2)


def test_the_paired_interval_holds_the_lift_and_is_narrower_when_the_same_seats_move() -> None:
    (row,) = lift_report().lifts
    paired, unpaired = row.lift, row.lift_unpaired
    assert paired.low is not None and paired.high is not None
    assert unpaired.low is not None and unpaired.high is not None
    assert paired.low <= 0.2 <= paired.high and unpaired.low <= 0.2 <= unpaired.high
    # per seat the difference is 0, 0, 1, 1, 0, ...: sd 0.13 paired against 0.20 apart
    assert paired.high - paired.low < unpaired.high - unpaired.low
    assert paired.low >= 0.0  # no resample of these seats can lift fewer with the family


def test_a_family_lifting_exactly_the_neutral_seats_has_no_lift_and_a_zero_interval() -> None:
    same = {**LIFTS, **{(r, "planted.plain"): LIFTS[(r, "padding")] for r in TEN}}
    (row,) = lift_report(same).lifts
    assert (row.lift.estimate, row.lift.low, row.lift.high) == (0.0, 0.0, 0.0)


def test_the_neutral_share_of_a_seat_averages_its_neutral_edits() -> None:
    scores = {
        ("r1", "baseline"): [0.2],
        ("r1", "padding"): [0.5],  # lifted
        ("r1", "labels.rename"): [0.25],  # not beyond 0.1
        ("r2", "baseline"): [0.2],
        ("r2", "padding"): [0.0],
        ("r2", "labels.rename"): [None],  # unscored: left out of the seat's share
        ("r1", "planted.plain"): [1.0],
        ("r2", "planted.plain"): [1.0],
    }
    runs = [seat_run(r) for r in ("r1", "r2")]
    names = ["planted.plain", "padding", "labels.rename"]
    plan = audit_plan(runs, names, seed=0)
    shifts = seat_shifts(plan, passes_for(plan, scores), ["negotiation"])
    neutral = [s for s in shifts if s.perturbation in ("padding", "labels.rename")]
    assert lifted_by(neutral, 0.1) == {("r1", "buyer"): 0.5, ("r2", "buyer"): 0.0}
    (row,) = report(scores, tuple(names)).lifts
    assert (row.family_lifted, row.neutral_lifted) == (1.0, 0.25)
    assert row.lift.estimate == pytest.approx(0.75)


def test_a_seat_without_a_neutral_shift_is_left_out_of_the_lift() -> None:
    scores = {**LIFTS, ("r9", "padding"): [None]}
    (row,) = lift_report(scores).lifts
    assert row.n == 9 and row.family_lifted == pytest.approx(4 / 9)


def test_without_a_neutral_edit_there_is_no_lift_and_the_report_says_so() -> None:
    r = report(SCORES)
    assert r.lifts == [] and r.neutral == []
    assert "No neutral edit was audited, so no lift beyond it is reported." in render_markdown(r)


def test_the_report_opens_with_the_lift_headline_in_markdown_and_html() -> None:
    r = lift_report()
    (row,) = r.lifts
    md = render_markdown(r)
    assert md.index("## Headline: attack lift beyond the neutral-edit lift") < md.index(
        "## negotiation"
    )
    line = next(x for x in md.splitlines() if x.startswith("| planted.plain | 10 |"))
    assert line == (
        f"| planted.plain | 10 | 0.400 | 0.200 | +0.200 [{row.lift.low:.3f}, {row.lift.high:.3f}] |"
    )
    assert "the neutral edits lifted (padding;" in md
    assert "largest lift is planted.plain, +0.200" in md
    page = render_html(r)
    assert "<h2>Headline: attack lift beyond the neutral-edit lift</h2>" in page
    assert "<td>planted.plain</td><td>10</td><td>0.400</td><td>0.200</td><td>+0.200" in page


def test_the_defence_comparison_puts_each_familys_lift_off_and_on_side_by_side() -> None:
    off = lift_report()
    steady = {**LIFTS, **{(r, "planted.plain"): LIFTS[(r, "padding")] for r in TEN}}
    on = lift_report(steady)
    text = render_defence({"sampled": off}, {"sampled": on})
    assert "### Headline: attack lift beyond the neutral-edit lift" in text
    (row,) = off.lifts
    assert (
        f"| planted.plain | 0.400 / 0.200 | +0.200 [{row.lift.low:.3f}, {row.lift.high:.3f}] "
        "| 0.200 / 0.200 | +0.000 [0.000, 0.000] |"
    ) in text
    assert "Defence on: 0 of 1 families lift seats beyond the neutral edits" in text


def test_a_lift_over_fewer_than_five_seats_has_no_interval_and_is_not_claimed() -> None:
    few = {k: v for k, v in LIFTS.items() if k[0] in ("r0", "r1", "r2", "r3")}
    r = lift_report(few)
    (row,) = r.lifts
    assert (row.n, row.lift.estimate, row.lift.low, row.lift.high) == (4, 0.5, None, None)
    assert "0 of 1 families lift seats beyond the neutral edits" in render_markdown(r)
    assert "| planted.plain | 4 | 1.000 | 0.500 | +0.500 [n/a] |" in render_markdown(r)
