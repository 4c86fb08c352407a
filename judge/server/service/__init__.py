"""The service's own rules over the store: run intake, scoring jobs, platform config and
eras, custom rubrics, and the views each caller may read. Route handlers call these."""
