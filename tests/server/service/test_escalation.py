"""Selective escalation against the store, on SQLite and PostgreSQL: a judge whose confidence
tracks its accuracy gets a threshold that keeps its right items and reaches the target on the
held-out runs; one whose confidence does not reaches no target and every item escalates; the
held-out runs never move the threshold; low-confidence items reach the labelling queue with
their reason, and an unsure panel verdict goes to the member sure of its own."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine

from judge.core.domain.escalation import EscalationTargetCreate
from judge.core.errors import InputError, NotFoundError
from judge.core.scoring.escalation import in_selection
from judge.engine.settings import Settings
from judge.server.service import escalation as service
from judge.server.service.label_queue import labelling_queue
from judge.server.store.db import transaction
from tests.server.service.escalation_world import TRAIT, Item, blind, load, tracking

TARGET = EscalationTargetCreate(target=0.8)


def _set(engine: Engine, body: EscalationTargetCreate = TARGET) -> service.TraitEscalation:
    with transaction(engine) as session:
        return service.set_target(session, trait=TRAIT, body=body, by="owner:ops")


def test_a_judge_whose_confidence_tracks_accuracy_reaches_the_target_on_held_out_runs(
    engine: Engine,
) -> None:
    load(engine, tracking())
    found = _set(engine)
    with transaction(engine) as session:
        kept = service.stored(session).traits[TRAIT]

    assert found.reachable and found.threshold == pytest.approx(0.9)
    assert found.selection.agreement == 1.0 and found.held_out.agreement == 1.0
    assert found.held_out.coverage == pytest.approx(0.75, abs=0.01)
    assert found.held_out_meets_target and found.held_out.lower_bound is not None
    assert found.selection.n_runs + found.held_out.n_runs == 80
    assert found.curve_held_out[-1].coverage == 1.0
    assert found.curve_held_out[-1].agreement == pytest.approx(0.75, abs=0.1)
    assert kept == found


def test_a_judge_whose_confidence_does_not_track_accuracy_reaches_no_target(
    engine: Engine,
) -> None:
    load(engine, blind())
    found = _set(engine)

    assert not found.reachable and found.threshold is None
    assert found.selection.coverage == 0.0 and found.held_out.coverage == 0.0
    assert found.held_out.agreement is None and not found.held_out_meets_target
    assert "not reachable" in found.note and "coverage 0" in found.note


def test_the_held_out_runs_never_move_the_threshold(engine: Engine) -> None:
    wrong = [
        i if in_selection(i.run_id, 0) else i._replace(owner=1.0 - (i.owner or 0.0))
        for i in tracking()
    ]
    load(engine, wrong)
    found = _set(engine)

    assert found.threshold == pytest.approx(0.9)
    assert found.selection.agreement == 1.0
    assert found.held_out.agreement is not None and found.held_out.agreement < 0.5
    assert not found.held_out_meets_target


def test_low_confidence_items_reach_the_labelling_queue_with_their_reason(
    engine: Engine, settings: Settings
) -> None:
    load(engine, tracking(n=40))
    _set(engine)
    with transaction(engine) as session:
        queue = labelling_queue(session, settings=settings, limit=500)
    low = {i.run_id for i in queue if "low_judge_confidence" in i.reasons}

    assert low == {f"esc-{k:03d}" for k in range(3, 40, 4)}
    assert all("wide_spread" in i.reasons for i in queue if i.run_id in low)


def test_an_unreachable_target_sends_every_item_to_the_queue(
    engine: Engine, settings: Settings
) -> None:
    load(engine, blind(n=40))
    _set(engine)
    with transaction(engine) as session:
        queue = labelling_queue(session, settings=settings, limit=500)

    assert {i.run_id for i in queue if "low_judge_confidence" in i.reasons} == {
        f"esc-{k:03d}" for k in range(40)
    }


def test_an_unsure_panel_verdict_is_decided_by_the_member_sure_of_its_own(engine: Engine) -> None:
    load(
        engine,
        [
            *tracking(),
            Item("panel-1", {"judge-a": [1.0, 1.0, 1.0], "judge-b": [0.0, 0.0, 0.0]}, None),
            Item("panel-2", {"judge-a": [0.0, 1.0, 0.5], "judge-b": [1.0, 0.0, 0.5]}, None),
            Item("panel-3", {"judge-a": [1.0, 1.0, 1.0], "judge-b": [1.0, 1.0, 1.0]}, None),
        ],
    )
    _set(engine)
    with transaction(engine) as session:
        (split,) = service.run_decisions(session, run_id="panel-1")
        (unsure,) = service.run_decisions(session, run_id="panel-2")
        (agreed,) = service.run_decisions(session, run_id="panel-3")

    assert split.confidence.value == 1.0 and split.threshold == pytest.approx(0.9)
    assert (split.decided_by, split.score, split.escalated_to) == ("judge-a", 1.0, "panel")
    assert (unsure.decided_by, unsure.escalated_to, unsure.reason) == (
        "owners",
        "owners",
        "low judge confidence",
    )
    assert (agreed.decided_by, agreed.escalated_to) == ("judge-a,judge-b", None)


def test_dropping_a_target_gives_the_decision_back_to_the_cards_judge(engine: Engine) -> None:
    load(engine, tracking(n=40))
    _set(engine)
    with transaction(engine) as session:
        (before,) = service.run_decisions(session, run_id="esc-003")
        service.remove_target(session, trait=TRAIT, by="owner:ops")
        (after,) = service.run_decisions(session, run_id="esc-003")
        with pytest.raises(NotFoundError, match="no escalation target for trait 'negotiation'"):
            service.remove_target(session, trait=TRAIT, by="owner:ops")

    assert before.decided_by == "owners"
    assert (after.decided_by, after.threshold) == ("scripted-sure", None)


def test_a_trait_nobody_labelled_names_the_traits_that_are(engine: Engine) -> None:
    load(engine, tracking(n=8))
    with transaction(engine) as session, pytest.raises(InputError, match=r"\['negotiation'\]"):
        service.set_target(session, trait="integrity", body=TARGET, by="owner:ops")
