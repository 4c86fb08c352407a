"""The HTTP API: ``create_api`` builds it alone; ``judge.web.create_app`` mounts it with the
console (``judge.api.create_app`` still reaches that for one release, with a warning)."""

from judge.api.app import create_api
from judge.deprecations import moved

__all__ = ["create_api"]

__getattr__ = moved(__name__, {"create_app": "judge.web:create_app"})
