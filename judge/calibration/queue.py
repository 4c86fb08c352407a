"""Moved to :mod:`judge.calibration.disagreements` (RENAMES.md).

Importing this module warns; it goes after one release.
"""

from judge.calibration.disagreements import *
from judge.errors import warn_renamed

warn_renamed(__name__, "judge.calibration.disagreements")
