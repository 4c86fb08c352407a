"""Moved to ``judge.service.jobqueue.tasks`` (the task function ``score_run`` is
``score_run_task`` there; its name in the queue is unchanged); the old names answer here for
one release, with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    {
        **same_names(
            "judge.service.jobqueue.tasks",
            [
                "CONTEXT_KEY",
                "KEEP_FINISHED_JOBS_H",
                "ORPHANS_TASK",
                "ORPHAN_GRACE_S",
                "PRUNE_TASK",
                "STALLED_TASK",
                "STORE_RETRY",
                "Runtime",
                "build_app",
                "conninfo",
                "defer_score",
                "defer_score_async",
                "prune_finished_jobs",
                "requeue_orphans",
                "retry_stalled",
                "run_lock",
                "runtime_of",
                "sweep_cron",
            ],
        ),
        "SCORE_TASK": "judge.store.job_status:SCORE_TASK",
        "orphan_runs": "judge.store.job_status:orphan_runs",
        "score_run": "judge.service.jobqueue.tasks:score_run_task",
    },
)
