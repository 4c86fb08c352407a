"""The HTTP API: ``create_api`` builds it alone; ``judge.server.web.create_app`` mounts it with the
console."""

from judge.server.api.app import create_api

__all__ = ["create_api"]
