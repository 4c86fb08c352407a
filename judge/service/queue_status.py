"""Moved to ``judge.service.jobqueue.status`` (the store reads to ``judge.store.job_status``,
the response models to ``judge.api.models``); the old names answer here for one release, with
a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    {
        **same_names("judge.service.jobqueue.status", ["queue_status"]),
        **same_names("judge.api.models", ["QueuePublic", "WorkerPublic"]),
        **same_names("judge.store.job_status", ["RunCounts", "run_counts"]),
        "queue_workers": "judge.service.jobqueue.status:live_workers",
    },
)
