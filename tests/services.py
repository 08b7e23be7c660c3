"""The services of the multi-process tests: a fresh PostgreSQL database and a Redis key
prefix of their own per test (see tests/with_services.py, which finds or starts them)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text

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
