"""Importers: other tools' records and human-labelled sets turned into runs.

One table, :data:`judge.importers.registry.IMPORTERS`, maps each name ``judge import NAME``
accepts to its importer; one module per importer declares its entry (docs/architecture.md,
"Add an importer").
"""
