"""Moved to ``judge.service.jobqueue.worker``; the old names answer here for one release,
with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    same_names(
        "judge.service.jobqueue.worker",
        [
            "QueueExecutor",
            "RECONNECT_INITIAL_S",
            "RECONNECT_MAX_S",
            "SHUTDOWN_GRACE_S",
            "serve_jobs",
            "worker_options",
        ],
    ),
)
