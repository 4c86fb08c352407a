"""Plain-text rendering for people: a scorecard, and the progress bar of judge passes."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping

from judge.core.domain.cost import Cost
from judge.core.domain.judging import PanelAgreement, TraitResult
from judge.core.domain.scorecard import Scorecard, SeatScorecard
from judge.core.domain.wording import counted
from judge.core.scoring.signal import card_formats


def figure(value: float | None, digits: int = 3) -> str:
    """A figure for people: ``-`` where there is none."""
    return "-" if value is None else f"{value:.{digits}f}"


def trait_line(t: TraitResult, reply_format: str | None = None) -> str:
    """The trait's figures; its ``reply_format`` in words below them, given only where the
    card's traits were not all sent in the same formats."""
    scores = " ".join(figure(s, 2) for s in t.pass_scores) or "none"
    status = "" if t.complete else f"  INCOMPLETE ({t.n_scored}/{t.floor} scored)"
    identical = f"  identical={t.n_identical}/{t.n_scored}" if t.n_scored else ""
    line = f"  {t.trait:<36} mean {figure(t.mean)}  var {figure(t.variance, 4)}  passes [{scores}]{identical}{status}"
    formats = [f"    reply format: {reply_format}"] if reply_format else []
    return "\n".join([line, *formats, *signal_lines(t)])


def signal_lines(t: TraitResult) -> list[str]:
    """Sampled and expected means, the within-pass entropy, the fallback note, each judge."""
    lines = []
    if t.n_with_distribution or t.score_note:
        bits = t.mean_entropy_bits
        entropy = "" if bits is None else f"entropy {figure(bits, 2)} bits  "
        lines.append(
            f"    sampled mean {figure(t.sampled_mean)}  expected mean {figure(t.expected_mean)}  "
            f"{entropy}({counted(t.n_with_distribution, 'pass', 'passes')} with a distribution)"
        )
    if t.score_note:
        lines.append(f"    note: {t.score_note}")
    if t.adaptive is not None:
        lines.append(f"    {counted(t.adaptive.passes, 'pass', 'passes')}: {t.adaptive.note}")
    lines += [
        f"    judge {j.model}: mean {figure(j.mean)}  var {figure(j.variance, 4)}  "
        f"passes [{' '.join(figure(s, 2) for s in j.pass_scores) or 'none'}]"
        for j in t.judges
    ]
    return lines


def seat_lines(
    card: SeatScorecard, formats: Mapping[tuple[str, str], str] | None = None
) -> list[str]:
    """The seat's figures and traits; ``formats``: each trait's reply format by (seat, trait),
    where the card's traits differ (:func:`judge.core.scoring.signal.card_formats`)."""
    formats = formats or {}

    def trait(t: TraitResult) -> str:
        return trait_line(t, formats.get((card.seat, t.trait)))

    o, pc, gate = card.objectives, card.objectives.partial_credit, card.participation
    gated = "GATED: " + "; ".join(gate.reasons) if gate.participation_gated else "ok"
    note = f"  ({card.composite_note})" if card.composite_note else ""
    lines = [
        f"seat {card.seat} (agent {card.agent_id})",
        (
            f"  objectives: {o.met_count}/{o.total_count} met, rate {figure(o.objective_met_rate)}, "
            f"partial credit {pc.total:g}/{pc.max_possible:g}"
        ),
        (
            f"  participation: {counted(gate.player_messages, 'message')}, "
            f"{gate.actions_per_turn:.2f} actions/turn: {gated}"
        ),
        f"  composite: {figure(card.composite)}{note}",
        " capability traits:",
        *(trait(t) for t in card.traits.values()),
    ]
    if card.safety_block:
        lines.append(" safety block (owner view):")
        lines += [trait(t) for t in card.safety_block.values()]
    return lines + ([panel_line(card.panel)] if card.panel is not None else [])


def panel_line(p: PanelAgreement) -> str:
    """The judge panel's agreement, and the trait it disagreed on most."""
    worst = ""
    if p.largest_disagreement_trait:
        means = ", ".join(f"{m} {figure(v)}" for m, v in p.largest_disagreement_means.items())
        trait = p.largest_disagreement_trait
        worst = f"; largest disagreement {trait} ({figure(p.largest_disagreement)}: {means})"
    return f"  panel agreement: Krippendorff alpha (interval) {figure(p.alpha_interval)} over {p.n_traits} traits{worst}"


def tamper_lines(card: Scorecard) -> list[str]:
    """One line per seat whose events held judge-directed text (withheld from the judge)."""
    return [
        f"seat {seat.seat}: {len(seat.tamper.withheld)} judge-directed passages withheld "
        "(docs/integrity.md)"
        for seat in card.seats.values()
        if seat.tamper is not None and seat.tamper.flagged
    ]


def standing_line(card: Scorecard) -> str:
    """Where the run stands for the leaderboards, in words that never contradict each other:
    ``ranked_eligible`` only says the rubrics allow ranking; a gated run counts on no board."""
    if card.participation_gated:
        return (
            "participation_gated True: left out of every leaderboard "
            f"(class {card.leaderboard_class} applies only to runs that are not gated)"
        )
    return (
        f"ranked_eligible {card.ranked_eligible}  class {card.leaderboard_class}  "
        "participation_gated False"
    )


def _usd(value: float | None) -> str:
    return "price unknown" if value is None else f"${value:.4f}"


def cost_line(cost: Cost) -> str:
    """What judging cost, beside what it was estimated to cost (docs/service.md)."""
    screen = f" ({cost.screen_calls} of them the judge's own screen)" if cost.screen_calls else ""
    line = (
        f"cost: {counted(cost.n_passes, 'pass', 'passes')}{screen}, tokens in {cost.prompt_tokens} "
        f"({cost.cached_prompt_tokens} cached) out {cost.completion_tokens}, "
        f"{_usd(cost.cost_usd)}, wall {cost.wall_s:.1f} s"
    )
    if cost.cpu_s is not None:
        line += f", CPU {cost.cpu_s:.1f} s"
    if (e := cost.estimate) is not None:
        line += f"; estimate at most {e.tokens} tokens, {_usd(e.cost_usd)}"
    return line


def render_scorecard(card: Scorecard) -> str:
    head = [
        f"run {card.run_id}  scenario {card.scenario_id}  seed {card.seed}",
        f"judge {card.judge_model}  prompt v{card.prompt_version}  era {card.measurement_era.era_id}",
        standing_line(card),
        "variance: sample variance of the scored passes (n-1)",
        f"pass score: {card.pass_score}  unparseable: "
        + ", ".join(
            f"{m} {r.unparseable}/{r.passes} (schema enforced on {r.structured_passes}"
            + (f", {r.shared_passes} in shared requests)" if r.shared_passes else ")")
            for m, r in card.judge_parse.items()
        ),
    ]
    formats = card_formats(card)
    if formats.card:
        head.append(f"reply format: {formats.card}")
    if card.cost is not None:
        head.append(cost_line(card.cost))
    if card.judge_note:
        head.insert(0, f"NOTE: {card.judge_note}")
    body = [line for seat in card.seats.values() for line in seat_lines(seat, formats.traits)]
    return "\n".join(head + tamper_lines(card) + body)


#: What the bar says before the first pass: an embedded judge loads its model then (seconds).
WAITING = "waiting for the judge's first answer (an embedded model loads first)"


@contextlib.contextmanager
def progress_bar(enabled: bool, label: str) -> Iterator[Callable[[int, int], None]]:
    """A bar of judge passes on stderr (off when ``enabled`` is false); yields the
    ``tick(done, total)`` that moves it, for the runner's progress callback."""
    from tqdm import tqdm

    with tqdm(
        total=0, desc=label, unit="pass", file=sys.stderr, disable=not enabled, leave=False
    ) as bar:
        bar.set_postfix_str(WAITING, refresh=True)

        def tick(done: int, total: int) -> None:
            bar.total, bar.n = total, done
            if done and bar.postfix:
                bar.set_postfix_str("", refresh=False)
            bar.refresh()

        yield tick
