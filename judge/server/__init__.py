"""The server: the store, the service rules, the HTTP API, the console and the composition root (docs/architecture.md)."""
