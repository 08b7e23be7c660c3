"""The store's writer thread: a batch's runs of appended actions go in one executemany, in
the batch's order, and a batch that fails is committed op by op (on SQLite and PostgreSQL:
tests/conftest.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from server_kit import db_url_for
from sqlalchemy import func, select

from parlour.server.storage.store import AppendAction, Op, Store, StoreError, actions_t


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = Store(db_url_for(tmp_path / "store.sqlite3"), auto_upgrade=True)
    try:
        yield store
    finally:
        store.close()


def logged(store: Store, table_id: str = "t1") -> list[tuple[int, str]]:
    with store.engine.connect() as conn:
        return [(r[0], r[1]) for r in conn.execute(
            select(actions_t.c.idx, actions_t.c.action)
            .where(actions_t.c.table_id == table_id).order_by(actions_t.c.idx))]


def commit(store: Store, ops: list[Op]) -> list[BaseException | None]:
    """Commit ``ops`` as one batch of the writer (as a busy server queues them); each op's
    outcome: None once committed, else its error."""
    loop = asyncio.new_event_loop()
    try:
        futures = [loop.create_future() for _ in ops]
        store._commit([(op, fut, loop) for op, fut in zip(ops, futures, strict=True)])
        loop.run_until_complete(asyncio.sleep(0))  # the writer's wake-ups
        return [fut.exception() for fut in futures]
    finally:
        loop.close()


def test_a_batchs_actions_are_appended_in_its_order_around_its_other_writes(store):
    seen: list[int] = []

    def count(conn):  # type: ignore[no-untyped-def]  # another op: it sees the run before it
        seen.append(conn.execute(select(func.count()).select_from(actions_t)).scalar_one())

    ops = [Store.op_action("t1", 1, 0, 0, "a"), Store.op_action("t1", 1, 1, 1, "b"), count,
           Store.op_action("t1", 1, 2, 2, "c"), Store.op_action("t2", 1, 0, 0, "x"), count]
    assert isinstance(ops[0], AppendAction)  # the batched kind
    assert commit(store, ops) == [None] * 6
    assert seen == [2, 4]
    assert logged(store) == [(0, "a"), (1, "b"), (2, "c")]
    assert logged(store, "t2") == [(0, "x")]


def test_a_bad_action_in_a_batch_fails_alone_and_the_others_commit(store):
    assert commit(store, [Store.op_action("t1", 1, 0, 0, "a")]) == [None]
    ops = [Store.op_action("t1", 1, 1, 0, "b"), Store.op_action("t1", 1, 0, 0, "again"),
           Store.op_action("t1", 1, 2, 0, "c")]
    outcome = commit(store, ops)
    assert outcome[0] is None and outcome[2] is None
    assert isinstance(outcome[1], StoreError)  # its index was taken: refused, told so
    assert logged(store) == [(0, "a"), (1, "b"), (2, "c")]


def test_the_writer_outlives_a_caller_whose_event_loop_closed(store):
    """A write asked for on an event loop that closes before the commit (a test client's
    loop of one request, whose bot queued a move) is committed, nobody is told, and the
    writer goes on: a later write from another loop is committed and answered (the writer
    once died of it, and every later write of its server waited forever)."""
    gone = asyncio.new_event_loop()
    fut = gone.create_future()
    gone.close()
    store._queue.put((Store.op_action("t1", 1, 0, 0, "a"), fut, gone))

    async def later() -> None:
        async with asyncio.timeout(30):  # (the writer's answer, or a clear failure)
            await store.write(Store.op_action("t1", 1, 1, 1, "b"))

    asyncio.run(later())
    assert logged(store) == [(0, "a"), (1, "b")] and store._thread.is_alive()


def test_the_writers_held_connection_broken_while_it_waited_is_replaced(store):
    """The writer holds its connection between batches; one that broke meanwhile (the
    database restarted, an idle connection was cut) costs no write: the batch is written
    again on a new connection, as the pool's check before use once made sure."""
    assert commit(store, [Store.op_action("t1", 1, 0, 0, "a")]) == [None]
    held = store._conn
    assert held is not None
    held.connection.driver_connection.close()  # cut under the writer, as an outage does
    assert commit(store, [Store.op_action("t1", 1, 1, 1, "b")]) == [None]  # a batch of one
    assert store._conn is not None and store._conn is not held
    held = store._conn
    held.connection.driver_connection.close()  # and under a batch with another kind of op
    assert commit(store, [Store.op_action("t1", 1, 2, 2, "c"),
                          Store.op_link_seat("t1", 0, None)]) == [None, None]
    assert store._conn is not None and store._conn is not held
    assert logged(store) == [(0, "a"), (1, "b"), (2, "c")]


def test_a_write_the_database_refuses_is_not_retried(store, monkeypatch):
    """Only a broken connection is retried: a refused write (here a taken index) is tried
    once, fails, and the writer carries on."""
    assert commit(store, [Store.op_action("t1", 1, 0, 0, "a")]) == [None]
    tries: list[int] = []
    real = store._write

    def counted(batch):  # type: ignore[no-untyped-def]
        tries.append(len(batch))
        real(batch)

    monkeypatch.setattr(store, "_write", counted)
    assert isinstance(commit(store, [Store.op_action("t1", 1, 0, 0, "again")])[0],
                      StoreError)
    assert tries == [1]
    assert commit(store, [Store.op_action("t1", 1, 1, 0, "b")]) == [None]
    assert tries == [1, 1]
    store._conn.connection.driver_connection.close()  # a broken connection is retried
    assert commit(store, [Store.op_action("t1", 1, 2, 0, "c")]) == [None]
    assert tries == [1, 1, 1, 1]
    assert logged(store) == [(0, "a"), (1, "b"), (2, "c")]
