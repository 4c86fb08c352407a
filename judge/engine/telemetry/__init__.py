"""Scores out to operators' tools: Prometheus metrics and OpenTelemetry events."""
