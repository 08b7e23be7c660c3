"""The tests' services (tests/with_services.py finds or starts them): a fresh PostgreSQL
database, the databases that stand in for a test's SQLite files when it runs on PostgreSQL,
and a Redis key prefix of a test's own."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from parlour.server.storage.store import Store, metadata

#: A PostgreSQL database the tests may create others from (tests/with_services.py).
PG_ADMIN = os.environ.get("PARLOUR_TEST_PG",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
#: The Redis the tests use (tests/with_services.py); each test takes a prefix of its own.
REDIS = os.environ.get("PARLOUR_TEST_REDIS", "redis://127.0.0.1:6379/0")


@contextmanager
def pg_database(prefix: str = "parlour_test") -> Iterator[str]:
    """A fresh PostgreSQL database, dropped after use; its SQLAlchemy URL (the test is
    skipped where none answers, outside tests/with_services.py)."""
    pytest.importorskip("psycopg")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as err:
        admin.dispose()
        if "PARLOUR_TEST_PG" in os.environ:  # make test promised one: a failure, not a skip
            raise
        pytest.skip(f"no PostgreSQL to test with: {err}")
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def redis_prefix() -> Iterator[str]:
    """A Redis key and channel prefix of one test's own (pub/sub ignores database numbers,
    so tests sharing one Redis are kept apart by prefix); its keys are deleted after."""
    import redis

    prefix = f"parlour-test-{uuid.uuid4().hex[:10]}:"
    try:
        yield prefix
    finally:
        client = redis.Redis.from_url(REDIS)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


def redis_or_skip() -> str:
    """The tests' Redis URL; the test is skipped if no Redis answers there (run outside
    tests/with_services.py, which promises one)."""
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except redis.RedisError as err:
        if "PARLOUR_TEST_REDIS" in os.environ:  # make test promised one: a failure
            raise
        pytest.skip(f"no Redis to test with: {err}")
    return REDIS


class StandIns:
    """PostgreSQL databases of one test worker's, standing in for the SQLite files a test
    names when it runs on PostgreSQL (tests/conftest.py's ``database``; server_kit asks
    :meth:`url_for`). Each file gets a database of its own, so two files are still two
    servers' databases and the same file is the same database again (a server killed and
    started again finds everything it wrote). A database is held for the :meth:`scope` it
    was first asked for in (a test's, or a module's for a module's shared server) and is
    never emptied while held; given back, it is emptied when it is handed out again: its
    rows deleted, its counters reset and any connection still open to it ended."""

    def __init__(self, prefix: str = "parlour_test_worker") -> None:
        self._prefix = prefix
        self._made: list[AbstractContextManager[str]] = []
        self._free: list[str] = []
        self._held: list[dict[Path, str]] = []

    def url_for(self, path: Path) -> str:
        path = Path(path).resolve()
        for held in self._held:
            if path in held:
                return held[path]
        assert self._held, "a database asked for outside any scope"
        if self._free:
            url = self._free.pop()
            empty(url)
        else:
            made = pg_database(self._prefix)
            url = made.__enter__()
            self._made.append(made)
            Store(url).close()  # the newest schema
        self._held[-1][path] = url
        return url

    @contextmanager
    def scope(self) -> Iterator[None]:
        """The databases first asked for within are held until it ends."""
        self._held.append({})
        try:
            yield
        finally:
            self._free.extend(self._held.pop().values())

    def close(self) -> None:
        """Drop every database, all at once (each drop waits for a checkpoint)."""
        with ThreadPoolExecutor() as pool:
            list(pool.map(lambda made: made.__exit__(None, None, None), self._made))


def empty(url: str) -> None:
    """Every row of the Parlour database at ``url`` deleted (children first), its counters
    back at 1 and any other connection to it ended. Deleting the few rows a test leaves is
    far cheaper than TRUNCATE, which makes every table's files anew."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
            for table in reversed(metadata.sorted_tables):
                conn.execute(table.delete())
            for (sequence,) in conn.execute(text(
                    "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")):
                conn.execute(text(f'ALTER SEQUENCE "{sequence}" RESTART'))
    finally:
        engine.dispose()
