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
