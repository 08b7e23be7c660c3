"""The database schema's history, as Alembic migrations (see
:mod:`parlour.server.storage.schema`)."""
