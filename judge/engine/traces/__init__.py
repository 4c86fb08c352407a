"""OpenTelemetry traces: OTLP decoding and the one mapping from a trace to a run (docs/integrations.md)."""
