"""Moved to :mod:`judge.service.trajectories` (RENAMES.md).

Importing this module warns; it goes after one release.
"""

from judge.errors import warn_renamed
from judge.service.trajectories import *

warn_renamed(__name__, "judge.service.trajectories")
