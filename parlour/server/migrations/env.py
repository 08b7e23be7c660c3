"""Alembic's entry point: run the migrations on the connection :mod:`parlour.server.storage.schema`
hands over (there is no ``alembic.ini``; ``parlour db upgrade`` is the command)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
