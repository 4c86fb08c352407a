"""Moved to ``judge.importers.casino``; the old names answer here for one release,
with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    same_names(
        "judge.importers.casino",
        [
            "POINTS",
            "MAX_POINTS",
            "WALK_AWAY_POINTS",
            "DEAL_ACTIONS",
            "Outcome",
            "priorities",
            "deal_points",
            "outcome",
            "transcript_events",
            "win_conditions",
            "casino_run",
            "casino_labels",
            "casino_items",
            "import_casino",
            "IMPORTER",
        ],
    ),
)
