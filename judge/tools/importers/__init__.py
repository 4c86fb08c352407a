"""Routes in from other tools (Inspect AI logs, OpenTelemetry GenAI traces) and out to them
(an Inspect scorer). Each importer turns foreign records into runs of the run format
(docs/run-format.md); docs/integrations.md says how each field is mapped."""
