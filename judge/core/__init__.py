"""The core: values in, values out. Errors, versions, the domain models, the scoring rules and the integrity detector; no I/O (docs/architecture.md)."""
