"""Moved to ``judge.importers`` (``files``, ``casino``, ``dices`` and the table in
``registry``); the old names answer here for one release, with a DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    {
        **same_names(
            "judge.importers.dices",
            ["DICES_SEATS", "dices_transcript", "dices_labels", "dices_item", "import_dices"],
        ),
        **same_names("judge.importers.files", ["read_json", "source_files"]),
        **same_names("judge.importers.registry", ["IMPORTERS", "import_set"]),
        **same_names("judge.importers.casino", ["import_casino"]),
    },
)
