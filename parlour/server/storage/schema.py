"""The database schema's version: checked at start, upgraded by Alembic.

Every change to the tables in :mod:`parlour.server.storage.store` comes with a migration in
``parlour/server/migrations/versions``. At start the server compares the database's
revision with the newest one:

* an empty database is created at the newest revision;
* a database made before migrations (the tables, no ``alembic_version``) is stamped with
  the first revision, which is that schema, and then treated as out of date;
* an out-of-date database is upgraded in place when the server may do so (its own SQLite
  file, the default), else the server refuses to start and says to run
  ``parlour db upgrade``.

One process at a time looks and upgrades (:func:`migration_lock`): two servers started at
once on a new database once both began to create it, and the second, finding half the
tables and no revision, took it for a database made before migrations and failed.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

from parlour.server.storage.database import make_engine

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
BASELINE = "0001"  # the schema of every database made before migrations
#: The PostgreSQL advisory lock that :func:`migration_lock` holds (a fixed number: "parl").
ADVISORY_LOCK = 0x7061726C


class SchemaError(RuntimeError):
    """The database's schema is older (or newer) than this server's."""


def _config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def head() -> str:
    """The newest revision this server knows."""
    script = ScriptDirectory(str(MIGRATIONS))
    newest = script.get_current_head()
    assert newest is not None
    return newest


def revision(engine: Engine) -> str | None:
    """The database's revision: None for an empty database, the baseline for one made
    before migrations."""
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
        if current is None and inspect(conn).has_table("parlour_tables"):
            return BASELINE
        return current


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the database's migration lock: a PostgreSQL advisory lock, or an exclusive
    ``flock`` on a SQLite file (SQLite's own locks are ``fcntl`` ones, which ``flock`` does
    not touch); an in-memory database needs none. Another process waits here."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_LOCK})
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK})
        return
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    with open(database, "ab") as held:  # (creates the file: SQLite takes an empty one)
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Bring the database to the newest revision; returns (before, after)."""
    with migration_lock(engine):
        return make_or_upgrade(engine)


def make_or_upgrade(engine: Engine) -> tuple[str | None, str]:
    """:func:`upgrade` for a caller that holds the :func:`migration_lock`."""
    before = revision(engine)
    with engine.begin() as conn:
        cfg = _config(conn)
        if before == BASELINE and MigrationContext.configure(conn).get_current_revision() \
                is None:
            command.stamp(cfg, BASELINE)
        command.upgrade(cfg, "head")
    return before, head()


def prepare(engine: Engine, auto_upgrade: bool) -> None:
    """Make sure the database has this server's schema (see the module's text)."""
    newest = head()
    if revision(engine) == newest:
        return
    with migration_lock(engine):
        current = revision(engine)  # (again: another process may have upgraded it)
        if current == newest:
            return
        if current is None or auto_upgrade:
            make_or_upgrade(engine)
            return
    known = {s.revision for s in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}
    if current not in known:
        raise SchemaError(f"the database is at schema revision {current}, which this server "
                          f"does not know (its newest is {newest}): is it a newer Parlour's?")
    raise SchemaError(f"the database is at schema revision {current}, this server needs "
                      f"{newest}: back it up, then run `parlour db upgrade --db <url>`")


def auto_upgrades(url: str) -> bool:
    """Whether the server upgrades this database itself at start: SQLite files are the
    server's own (``make run``); any other database waits for ``parlour db upgrade``."""
    return url.startswith("sqlite")


def check(url: str, auto_upgrade: bool | None = None) -> None:
    """:func:`prepare` the database at ``url`` (SchemaError if it is out of date and may
    not be upgraded here)."""
    engine = make_engine(url)
    try:
        prepare(engine, auto_upgrades(url) if auto_upgrade is None else auto_upgrade)
    finally:
        engine.dispose()


def upgrade_url(url: str) -> tuple[str | None, str]:
    """``parlour db upgrade``: bring the database at ``url`` to the newest revision."""
    engine = make_engine(url)
    try:
        return upgrade(engine)
    finally:
        engine.dispose()
