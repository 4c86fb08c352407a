"""The store: tables, engines, migrations and keyword-only repository functions."""
