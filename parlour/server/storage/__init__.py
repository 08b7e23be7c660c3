"""The database: the store (SQLAlchemy Core, the action log), its schema and migrations
(their scripts stay in parlour/server/migrations/, where alembic looks), the engine
factory, backups."""
