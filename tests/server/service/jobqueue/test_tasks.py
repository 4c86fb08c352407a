"""The job queue's procrastinate app: the scoring task keeps the name queued jobs carry."""

from __future__ import annotations

from judge.engine.settings import load_settings
from judge.server.service.jobqueue.tasks import build_app, score_run_task


def test_the_scoring_task_is_stored_under_its_old_queue_name() -> None:
    settings = load_settings(dev_mode=True, database_url="postgresql://judge@127.0.0.1:1/judge")

    app = build_app(settings, sync=True)  # nothing connects until the app is opened

    assert app.tasks["judge.score_run"].func is score_run_task
