"""Moved to ``judge.calibration.disagreements``; the old names answer here for one release,
with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    same_names(
        "judge.calibration.disagreements",
        [
            "TraitComparison",
            "RaterComparison",
            "index_rows",
            "disagreement",
            "disagreements",
            "trait_comparison",
            "compare",
        ],
    ),
)
