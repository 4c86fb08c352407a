"""The store: SQLModel tables (``tables``), engine and sessions (``db``), Alembic
migrations (``migrations``) and keyword-only repository functions, one module per resource."""
