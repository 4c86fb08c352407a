"""The deprecation seam of judge.errors: every old public name of RENAMES.md still resolves to
its new home for one release, and says where that is."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

from judge.errors import renamed

#: (old module, old name, new module, new name): the renames of "one name per concept".
RENAMED = [
    ("judge.scoring.agreement", "Estimate", "judge.domain.interval", "Interval"),
    ("judge.calibration.report_model", "EstimateOut", "judge.domain.interval", "Interval"),
    ("judge.scoring.stability", "StabilitySpread", "judge.scoring.stability", "RunSpread"),
    ("judge.scoring.stability", "spread", "judge.scoring.stability", "run_spread"),
    ("judge.scoring.outcomes", "spread", "judge.scoring.outcomes", "reward_range"),
    ("judge.domain.checks", "RewardSpread", "judge.domain.checks", "RewardRange"),
    ("judge.calibration.report", "spread", "judge.calibration.report", "judge_pass_spread"),
    ("judge.cli.score", "score_one", "judge.cli.score", "score_file"),
    ("judge.cli.score", "Job", "judge.cli.score", "FileJob"),
    ("judge.service.jobs", "score_one", "judge.service.jobs", "score_stored_run"),
    ("judge.service.scoring", "Job", "judge.service.scoring", "ScoringJob"),
    ("judge.judging.score_grid", "pass_score", "judge.judging.score_grid", "score_of_pass"),
    ("judge.tabular", "export_rows", "judge.tabular", "write_table"),
    ("judge.scoring.run_summary", "pass_spread", "judge.scoring.run_summary", "pass_range"),
    ("judge.domain.review", "QueueState", "judge.domain.review", "ReviewQueueState"),
    ("judge.store.summaries", "QueueCursor", "judge.store.summaries", "ReviewQueueCursor"),
    ("judge.service.reviews", "queue_cursor", "judge.service.reviews", "review_queue_cursor"),
]

#: (old module, new module): modules that moved whole.
MOVED = [
    ("judge.calibration.queue", "judge.calibration.disagreements"),
    ("judge.scoring.export", "judge.scoring.trajectories"),
    ("judge.service.exports", "judge.service.trajectories"),
]


@pytest.mark.parametrize(("old_module", "old", "new_module", "new"), RENAMED)
def test_an_old_name_warns_and_is_the_new_object(
    old_module: str, old: str, new_module: str, new: str
) -> None:
    module = importlib.import_module(old_module)
    with pytest.warns(DeprecationWarning, match=rf"{old_module}\.{old} is deprecated; use "):
        value = getattr(module, old)
    assert value is getattr(importlib.import_module(new_module), new)


@pytest.mark.parametrize(("old_module", "new_module"), MOVED)
def test_a_moved_module_warns_on_import_and_serves_the_new_names(
    old_module: str, new_module: str
) -> None:
    sys.modules.pop(old_module, None)
    with pytest.warns(DeprecationWarning, match=rf"use {new_module}$"):
        module = importlib.import_module(old_module)
    new = importlib.import_module(new_module)
    public = [name for name in vars(new) if not name.startswith("_")]
    assert public and all(getattr(module, name) is getattr(new, name) for name in public)


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    lookup = renamed("judge.example", {"old": ("judge.example.new", 1)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="'judge.example' has no attribute 'missing'"):
            lookup("missing")
