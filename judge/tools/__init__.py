"""The tools: the command line, the audit, the importers, table exports and the Inspect scorer (docs/architecture.md)."""
