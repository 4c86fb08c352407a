"""The HTTP API: app factory, dependencies, auth, error mapping and one router per resource."""

from judge.api.app import create_app

__all__ = ["create_app"]
