"""Moved to :mod:`judge.scoring.trajectories` (RENAMES.md).

Importing this module warns; it goes after one release.
"""

from judge.errors import warn_renamed
from judge.scoring.trajectories import *

warn_renamed(__name__, "judge.scoring.trajectories")
