"""Moved to ``judge.service.jobqueue.executors`` (``is_postgres``: ``judge.store.db.is_postgres_url``);
the old names answer here for one release, with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    {
        **same_names(
            "judge.service.jobqueue.executors",
            ["ExecutorKind", "ScoringExecutor", "executor_kind", "make_executor"],
        ),
        "is_postgres": "judge.store.db:is_postgres_url",
    },
)
