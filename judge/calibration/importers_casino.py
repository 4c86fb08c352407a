"""Moved to :mod:`judge.importers.casino` (RENAMES.md).

Importing this module warns; it goes after one release.
"""

from judge.errors import warn_renamed
from judge.importers.casino import *

warn_renamed(__name__, "judge.importers.casino")
