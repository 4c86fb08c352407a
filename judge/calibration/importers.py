"""Moved to :mod:`judge.importers` (RENAMES.md): ``files``, ``casino``, ``dices`` and the
table in ``registry``.

Importing this module warns; it goes after one release.
"""

from judge.errors import warn_renamed
from judge.importers.casino import import_casino
from judge.importers.dices import (
    DICES_SEATS,
    dices_item,
    dices_labels,
    dices_transcript,
    import_dices,
)
from judge.importers.files import read_json, source_files
from judge.importers.registry import IMPORTERS, import_set

__all__ = [
    "DICES_SEATS",
    "IMPORTERS",
    "dices_item",
    "dices_labels",
    "dices_transcript",
    "import_casino",
    "import_dices",
    "import_set",
    "read_json",
    "source_files",
]

warn_renamed(__name__, "judge.importers")
