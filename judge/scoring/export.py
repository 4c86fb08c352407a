"""Moved to ``judge.scoring.trajectories``; the old names answer here for one release,
with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    same_names(
        "judge.scoring.trajectories",
        [
            "NDJSON_MEDIA_TYPE",
            "StepAction",
            "TrajectoryStep",
            "actions_at",
            "done_turns",
            "last_step_index",
            "trajectory",
            "trajectories",
            "to_jsonl",
        ],
    ),
)
