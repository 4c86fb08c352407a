"""`judge audit`: how far a judge's scores move when a run is perturbed (docs/audit.md)."""
