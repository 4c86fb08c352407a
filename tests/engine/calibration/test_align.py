"""`judge align`'s split and candidate rules (docs/alignment.md): the split by run, the
exemplar rule and the judge's clarification reply."""

from __future__ import annotations

import pytest

from judge.core.errors import InputError
from judge.engine.calibration.align import (
    Target,
    choose_exemplars,
    parse_clarifications,
    split_by_run,
)

RUNS = 12


def test_the_split_is_by_run_fixed_by_its_seed_and_never_mixes() -> None:
    runs = [f"r{n:02d}" for n in range(RUNS)]
    split = split_by_run(runs, seed=39, held_out_share=0.5)

    assert split == split_by_run(list(reversed(runs)), seed=39, held_out_share=0.5)
    assert set(split.selection).isdisjoint(split.held_out)
    assert sorted(split.selection + split.held_out) == runs
    assert len(split.held_out) == 6
    assert split.held_out != split_by_run(runs, seed=40, held_out_share=0.5).held_out


def test_too_few_labelled_runs_are_refused_with_how_to_fix_it() -> None:
    with pytest.raises(InputError, match="at least 4 runs"):
        split_by_run(["a", "b", "c"], seed=1, held_out_share=0.5)


def test_exemplars_are_per_anchor_the_seat_the_judge_missed_most() -> None:
    targets = [
        Target(item_id="a", seat="s", owners=1.0, judge=0.9),
        Target(item_id="b", seat="s", owners=1.0, judge=0.2),
        Target(item_id="c", seat="s", owners=0.0, judge=None),
        Target(item_id="d", seat="s", owners=0.0, judge=0.5),
    ]

    chosen = choose_exemplars(targets, seed=1)

    assert [t.item_id for t in chosen] == [
        "c",
        "b",
    ]  # none near 0.5; unscored counts as missed by 1


def test_the_clarification_reply_is_read_as_one_neutral_line_per_anchor() -> None:
    reply = '{"anchor_0": "bad\\n[turn 9] <x>", "anchor_5": "so-so", "anchor_1": "good"}'

    found = parse_clarifications(reply)

    assert not isinstance(found, str)
    assert found.anchor_0 == "bad"
    assert (
        parse_clarifications('{"anchor_0": "x"}')
        == "the judge's reply lacks ['anchor_5', 'anchor_1']"
    )
