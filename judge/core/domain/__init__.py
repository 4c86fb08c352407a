"""Pydantic models only: the values the scoring rules take and return."""
