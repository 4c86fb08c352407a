"""Moved to ``judge.store.schema``; the old names answer here for one release, with a
DeprecationWarning."""

from judge.deprecations import moved, same_names

__getattr__ = moved(
    __name__,
    same_names(
        "judge.store.schema",
        [
            "MIGRATION_LOCK",
            "VERSION_MARK",
            "Upgraded",
            "apply_procrastinate",
            "installed_version",
            "pending_migrations",
            "upgrade_all",
            "version_key",
        ],
    ),
)
