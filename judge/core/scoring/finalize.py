"""Submission finalization from the runs' scorecards alone (docs/scoring.md, "Standing from
every run"; docs/service.md). Runs scored in different eras are refused (the stamp would mix
instruments); runs sharing an older era are stamped with it and flagged ``era_is_current:
false``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from judge.core.domain.outputs import Value
from judge.core.domain.scorecard import MeasurementEra, Scorecard
from judge.core.domain.status import FinalSubmissionStatus, LeaderboardClass, leaderboard_class
from judge.core.errors import InputError

Visibility = Literal["public", "unlisted"]


class Finalization(Value):
    """What finalizing a submission stamps on it."""

    agent_id: str
    scenario_id: str
    run_ids: list[str]
    status: FinalSubmissionStatus
    measurement_era: MeasurementEra
    era_is_current: bool
    current_era_id: str
    ranked_eligible: bool
    leaderboard_class: LeaderboardClass
    visibility: Visibility
    gated_run_ids: list[str] = Field(
        description="runs where the agent's seat was participation-gated"
    )
    custom_rubric_run_ids: list[str] = Field(
        description="runs scored with at least one custom rubric"
    )
    self_reported_run_ids: list[str] = Field(
        default_factory=list,
        description="runs submitted with an agent key (self-reported, never ranked)",
    )
    left_out_run_ids: list[str] = Field(
        default_factory=list,
        description="scored ranked-eligible runs of the agent in the scenario and era that an "
        "agent-filed submission left out: it is then unranked (docs/scoring.md)",
    )
    flags: list[str] = Field(description="human-readable notes on anything that limits comparison")


def agent_seats(card: Scorecard, agent_id: str) -> list[str]:
    """The scored seats the agent held in a run (more than one in self-play)."""
    return sorted(s for s, c in card.seats.items() if c.agent_id == agent_id)


def agent_gated(card: Scorecard, agent_id: str) -> bool:
    """True when any seat the agent held in the run was participation-gated."""
    return any(card.seats[s].participation_gated for s in agent_seats(card, agent_id))


def check_membership(cards: Sequence[Scorecard], *, agent_id: str, scenario_id: str) -> None:
    """Refuse (``InputError``) no runs, a run of another scenario, or one the agent has no
    scored seat in."""
    if not cards:
        raise InputError(
            "the submission has no runs: add at least one scored run before finalizing"
        )
    other = sorted(c.run_id for c in cards if c.scenario_id != scenario_id)
    if other:
        raise InputError(
            f"runs {other} are not on scenario {scenario_id!r}; remove them from the submission"
        )
    absent = sorted(c.run_id for c in cards if not agent_seats(c, agent_id))
    if absent:
        raise InputError(f"agent {agent_id!r} holds no scored seat in runs {absent}; remove them")


def shared_era(cards: Sequence[Scorecard]) -> MeasurementEra:
    """The one era every run was measured in (``InputError`` listing the runs of each era)."""
    eras = {c.measurement_era.era_id: c.measurement_era for c in cards}
    if len(eras) > 1:
        by_era = {
            e: sorted(c.run_id for c in cards if c.measurement_era.era_id == e)
            for e in sorted(eras)
        }
        listing = "; ".join(f"{era}: {runs}" for era, runs in by_era.items())
        raise InputError(
            f"runs were scored in {len(eras)} measurement eras ({listing}); a submission is stamped "
            "with one era: rescore the runs in one era or split the submission by era"
        )
    return next(iter(eras.values()))


def choose_visibility(
    requested: Visibility | None,
    ranked_eligible: bool,
    custom: list[str],
    self_reported: Sequence[str] = (),
    left_out: Sequence[str] = (),
) -> Visibility:
    """Public only for ranked-eligible submissions (``InputError`` otherwise); the widest
    allowed when none is requested."""
    if requested is None:
        return "public" if ranked_eligible else "unlisted"
    if requested == "public" and (self_reported or not ranked_eligible):
        raise InputError(_unlisted_only(custom, self_reported, left_out))
    return requested


def left_out_runs(cards: Sequence[Scorecard], every_run_id: Sequence[str]) -> list[str]:
    """The runs of ``every_run_id`` (the agent's scored runs in the scenario and era) that the
    submission's ``cards`` do not hold."""
    held = {c.run_id for c in cards}
    return sorted(r for r in set(every_run_id) if r not in held)


def _unlisted_only(
    custom: list[str], self_reported: Sequence[str], left_out: Sequence[str] = ()
) -> str:
    if left_out and not custom and not self_reported:
        return (
            f"the agent's scored runs {list(left_out)} in this scenario and era are not in the "
            "submission: a submission an agent files is ranked only when it holds every scored "
            'run of the agent there (docs/scoring.md, "Standing from every run"); add them '
            "(POST .../runs) before finalizing, or finalize with visibility 'unlisted'"
        )
    if self_reported:
        return (
            f"runs {list(self_reported)} were submitted with an agent key, so the submission is in the "
            "self_reported class and may only be published unlisted: finalize it with visibility "
            "'unlisted', or have the platform (an owner) record the runs"
        )
    return (
        f"runs {custom} were scored with a custom rubric, so the submission is in the "
        "self_hosted_facilitator class and may only be published unlisted: "
        "finalize it with visibility 'unlisted'"
    )


def _flags(
    era: MeasurementEra,
    current: MeasurementEra,
    gated: list[str],
    custom: list[str],
    self_reported: list[str],
    left_out: list[str],
) -> list[str]:
    flags = []
    if era.era_id != current.era_id:
        flags.append(
            f"measured in era {era.era_id}, not the current era {current.era_id}: "
            "comparisons with current results cross eras"
        )
    if gated:
        flags.append(f"incomplete: participation-gated runs {gated} are left out of leaderboards")
    if custom:
        flags.append(
            f"custom rubrics in runs {custom}: self_hosted_facilitator class, never ranked"
        )
    if self_reported:
        flags.append(
            f"self-reported runs {self_reported} (submitted with an agent key): self_reported class, never ranked"
        )
    if left_out:
        flags.append(
            f"unranked: the agent's scored runs {left_out} in this scenario and era are left out; "
            "standing counts every scored run (docs/scoring.md)"
        )
    return flags


def finalize_submission(
    cards: Sequence[Scorecard],
    *,
    agent_id: str,
    scenario_id: str,
    current_era: MeasurementEra,
    visibility: Visibility | None = None,
    every_run_id: Sequence[str] | None = None,
) -> Finalization:
    """Decide era, status, class and visibility of a submission from its runs' scorecards
    (``InputError`` saying what to change when the runs cannot be finalized).
    ``every_run_id``: for a submission an agent filed, every scored ranked-eligible run of
    the agent in the scenario and the submission's era; None for a set the platform assembled."""
    check_membership(cards, agent_id=agent_id, scenario_id=scenario_id)
    era = shared_era(cards)
    left_out = left_out_runs(cards, every_run_id or ())
    gated = sorted(c.run_id for c in cards if agent_gated(c, agent_id))
    self_reported = sorted(c.run_id for c in cards if c.leaderboard_class == "self_reported")
    custom = sorted(
        c.run_id for c in cards if not c.ranked_eligible and c.leaderboard_class != "self_reported"
    )
    eligible = not custom and not self_reported and not left_out
    return Finalization(
        agent_id=agent_id,
        scenario_id=scenario_id,
        run_ids=sorted(c.run_id for c in cards),
        status="incomplete" if gated else "complete",
        measurement_era=era,
        era_is_current=era.era_id == current_era.era_id,
        current_era_id=current_era.era_id,
        ranked_eligible=eligible,
        leaderboard_class=leaderboard_class(
            custom_rubric=bool(custom), self_reported=bool(self_reported)
        ),
        visibility=choose_visibility(visibility, eligible, custom, self_reported, left_out),
        gated_run_ids=gated,
        custom_rubric_run_ids=custom,
        self_reported_run_ids=self_reported,
        left_out_run_ids=left_out,
        flags=_flags(era, current_era, gated, custom, self_reported, left_out),
    )
