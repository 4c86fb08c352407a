"""Moved to ``judge.service.trajectories``; the old names answer here for one release,
with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    same_names(
        "judge.service.trajectories",
        [
            "run_trajectory",
            "submission_trajectory",
        ],
    ),
)
