"""A moved name answers at its old home for one release, with a warning naming the new one."""

from __future__ import annotations

import pytest

from judge.deprecations import moved, same_names


def test_a_moved_name_is_the_new_object_and_warns_with_its_new_home() -> None:
    forward = moved("judge.old", {"dumps": "json:dumps"})

    with pytest.warns(
        DeprecationWarning, match=r"judge\.old\.dumps is deprecated: use json\.dumps"
    ):
        found = forward("dumps")

    import json

    assert found is json.dumps


def test_a_name_that_never_lived_there_is_an_attribute_error() -> None:
    forward = moved("judge.old", same_names("json", ["dumps"]))

    with pytest.raises(AttributeError, match="module 'judge.old' has no attribute 'loads'"):
        forward("loads")


def test_a_module_that_moved_whole_forwards_every_name_with_a_warning() -> None:
    import json

    from judge.deprecations import moved_module

    with pytest.warns(DeprecationWarning, match=r"^judge\.old moved to json$"):
        assert moved_module("judge.old", "json")("loads") is json.loads


@pytest.mark.parametrize(
    ("old", "name", "new"),
    [
        ("judge.service.tasks", "score_run", "judge.service.jobqueue.tasks:score_run_task"),
        (
            "judge.service.executors",
            "make_executor",
            "judge.service.jobqueue.executors:make_executor",
        ),
        ("judge.service.executors", "is_postgres", "judge.store.db:is_postgres_url"),
        ("judge.service.queue", "QueueExecutor", "judge.service.jobqueue.worker:QueueExecutor"),
        (
            "judge.service.queue_status",
            "queue_status",
            "judge.service.jobqueue.status:queue_status",
        ),
        ("judge.service.schema", "upgrade_all", "judge.store.schema:upgrade_all"),
        ("judge.telemetry", "exposition", "judge.service.jobqueue.metrics:exposition"),
        ("judge.console", "mount", "judge.web:mount_console"),
        ("judge.api.deps", "unit_of_work", "judge.deps:unit_of_work"),
        ("judge.api.caller", "system_actor", "judge.auth:system_actor"),
    ],
)
def test_the_old_homes_of_this_release_still_answer(old: str, name: str, new: str) -> None:
    import importlib

    module, _, attribute = new.partition(":")
    with pytest.warns(DeprecationWarning, match=f"use {module}.{attribute}"):
        found = getattr(importlib.import_module(old), name)
    assert found is getattr(importlib.import_module(module), attribute)


#: One name per concept (RENAMES.md): (old module, old name, new home).
ONE_NAME_PER_CONCEPT = [
    ("judge.scoring.agreement", "Estimate", "judge.domain.interval:Interval"),
    ("judge.calibration.report_model", "EstimateOut", "judge.domain.interval:Interval"),
    ("judge.scoring.stability", "StabilitySpread", "judge.scoring.stability:RunSpread"),
    ("judge.scoring.stability", "spread", "judge.scoring.stability:run_spread"),
    ("judge.scoring.outcomes", "spread", "judge.scoring.outcomes:reward_range"),
    ("judge.domain.checks", "RewardSpread", "judge.domain.checks:RewardRange"),
    ("judge.calibration.report", "spread", "judge.calibration.report:judge_pass_spread"),
    ("judge.scoring.run_summary", "pass_spread", "judge.scoring.run_summary:pass_range"),
    ("judge.cli.score", "score_one", "judge.cli.score:score_file"),
    ("judge.cli.score", "Job", "judge.cli.score:FileJob"),
    ("judge.service.jobs", "score_one", "judge.service.jobs:score_stored_run"),
    ("judge.service.scoring", "Job", "judge.service.scoring:ScoringJob"),
    ("judge.judging.score_grid", "pass_score", "judge.judging.score_grid:score_of_pass"),
    ("judge.tabular", "export_rows", "judge.tabular:write_table"),
    ("judge.domain.review", "QueueState", "judge.domain.review:ReviewQueueState"),
    ("judge.store.summaries", "QueueCursor", "judge.store.summaries:ReviewQueueCursor"),
    ("judge.service.reviews", "queue_cursor", "judge.service.reviews:review_queue_cursor"),
    ("judge.calibration.queue", "compare", "judge.calibration.disagreements:compare"),
    ("judge.scoring.export", "trajectory", "judge.scoring.trajectories:trajectory"),
    ("judge.service.exports", "run_trajectory", "judge.service.trajectories:run_trajectory"),
    ("judge.calibration.importers", "import_set", "judge.importers.registry:import_set"),
    ("judge.calibration.importers", "read_json", "judge.importers.files:read_json"),
    ("judge.calibration.importers_casino", "casino_run", "judge.importers.casino:casino_run"),
]


@pytest.mark.parametrize(("old", "name", "new"), ONE_NAME_PER_CONCEPT)
def test_an_old_name_of_a_concept_answers_with_its_one_name(old: str, name: str, new: str) -> None:
    import importlib

    module, _, attribute = new.partition(":")
    with pytest.warns(DeprecationWarning, match=f"{old}.{name} is deprecated: use {module}."):
        found = getattr(importlib.import_module(old), name)
    assert found is getattr(importlib.import_module(module), attribute)


def test_a_moved_module_serves_every_public_name_of_its_new_home() -> None:
    import importlib
    import inspect

    for old, new in [
        ("judge.calibration.queue", "judge.calibration.disagreements"),
        ("judge.scoring.export", "judge.scoring.trajectories"),
        ("judge.service.exports", "judge.service.trajectories"),
        ("judge.calibration.importers_casino", "judge.importers.casino"),
    ]:
        home = importlib.import_module(new)
        own = [
            n
            for n, v in vars(home).items()
            if not n.startswith("_") and getattr(v, "__module__", new) == new
            and not inspect.ismodule(v) and n not in {"annotations", "IMPORTER"}
        ]  # fmt: skip
        with pytest.warns(DeprecationWarning):
            assert all(getattr(importlib.import_module(old), n) is vars(home)[n] for n in own)
