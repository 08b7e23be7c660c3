"""Leases and their fence: one owner per table among processes sharing a database, and a
stale owner's writes refused by the database (parlour.server.cluster.lease)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from server_kit import app_client, connect, create, db_url_for
from sqlalchemy import event, exc, select
from waits import joined, wait_until

from parlour.server.cluster.lease import Leases
from parlour.server.storage.store import Fenced, SeatRow, Store, TableRow, actions_t, leases_t

BOTS4 = [{"kind": "bot", "bot": "rule"}] * 4


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return db_url_for(tmp_path / "leases.sqlite3")


def new_table(store: Store, leases: Leases, table_id: str = "t1") -> None:
    row = TableRow(table_id, "spades", 4, {}, 1.0, "playing", 1,
                   [SeatRow("bot", "rule", None, None)] * 4, {})

    def both(conn):  # type: ignore[no-untyped-def]
        Store.op_create_table(row)(conn)
        leases.create_op(table_id)(conn)

    asyncio.run(store.write(both))
    leases.hold(table_id)


def logged(store: Store, table_id: str) -> list[str]:
    with store.engine.connect() as conn:
        return [r[0] for r in conn.execute(select(actions_t.c.action)
                                           .where(actions_t.c.table_id == table_id)
                                           .order_by(actions_t.c.idx))]


def test_a_release_is_not_undone_by_a_renewal_under_way(db_url):
    """A heartbeat that read the leases held just before the process let them go (its
    shutdown) must not push them back: the next process takes the table at once."""
    store = Store(db_url, auto_upgrade=True)
    try:
        first = Leases(store.engine, "first", ttl=30)
        new_table(store, first)
        read, go_on = threading.Event(), threading.Event()
        real_begin = store.engine.begin

        def paused_begin():  # type: ignore[no-untyped-def]
            if threading.current_thread().name == "heartbeat":
                read.set()  # the renewal has read the leases it holds
                assert go_on.wait(10), "the test did not let the renewal go on"
            return real_begin()

        store.engine.begin = paused_begin  # type: ignore[method-assign]
        try:
            beat = threading.Thread(target=first.renew, name="heartbeat")
            beat.start()
            assert read.wait(10), "the renewal did not start"
            letting_go = threading.Thread(target=first.release, name="shutdown")
            letting_go.start()
            letting_go.join(0.3)  # it waits for the renewal (with the fix), or is done
            go_on.set()
            joined(beat, "the renewal", 10)
            joined(letting_go, "the release", 10)
        finally:
            del store.engine.begin
        assert first.tokens == {}
        assert Leases(store.engine, "second", ttl=30).claim("t1") == 2
    finally:
        store.close()


def test_one_owner_at_a_time_and_a_stale_owner_cannot_write(db_url):
    """By the database's clock, moved on by the test (``Leases.ahead``)."""
    store = Store(db_url, auto_upgrade=True)
    ahead = [0.0]
    try:
        first = Leases(store.engine, "first", ttl=30, ahead=lambda: ahead[0])
        second = Leases(store.engine, "second", ttl=30, ahead=lambda: ahead[0])
        new_table(store, first)
        assert second.claim("t1") is None  # the first holds it
        assert first.claim("t1") == 1  # claiming one's own lease keeps its token
        asyncio.run(store.write(first.fence("t1", Store.op_action("t1", 1, 0, 0, "1"))))
        ahead[0] = 20.0
        assert second.claim("t1") is None  # the fence renewed it: 30 s from the write
        ahead[0] = 31.0  # the first misses its heartbeats: its lease runs out
        assert second.claim("t1") == 2
        assert second.moves == 1
        with pytest.raises(Fenced):  # the first wakes up and writes: refused
            asyncio.run(store.write(first.fence("t1", Store.op_action("t1", 1, 1, 1, "2"))))
        assert logged(store, "t1") == ["1"]
        asyncio.run(store.write(second.fence("t1", Store.op_action("t1", 1, 1, 1, "3"))))
        assert logged(store, "t1") == ["1", "3"]
        assert first.renew() == {"t1"}  # its heartbeat tells it that it lost the table
        assert second.renew() == set()
        assert first.claim("t1") is None
        second.release()  # a drain hands it over: anyone may take it at once
        assert first.claim("t1") == 3
        with store.engine.connect() as conn:
            owner, token = conn.execute(select(leases_t.c.owner, leases_t.c.token)).one()
        assert (owner, token) == ("first", 3)
    finally:
        store.close()


@pytest.mark.databases("postgresql")  # row locks: SQLite lets one writer in at a time
def test_a_heartbeat_during_a_group_commit_of_its_tables_neither_waits_nor_deadlocks(db_url):
    """A group commit fences several tables' writes in one transaction, locking their lease
    rows one by one; the heartbeat renewed all of a process's leases in one UPDATE, taking
    the rows in its own order. Each held a row the other wanted, and PostgreSQL broke the
    deadlock only after a second (deadlock_timeout), aborting one of them: about 1% of
    moves waited 1.1 s at 50 tables (bench/server.py --processes 1)."""
    store = Store(db_url, auto_upgrade=True)
    try:
        leases = Leases(store.engine, "owner", ttl=30)
        for table_id in ("a", "b"):
            new_table(store, leases, table_id)
        beat: dict[str, object] = {}
        with store.engine.begin() as conn:  # one group commit: b's write, then a's
            leases.fence("b", Store.op_action("b", 1, 0, 0, "1"))(conn)
            heart = threading.Thread(target=lambda: beat.update(lost=leases.renew()))
            heart.start()
            # it skips b's row, which the write renews as it commits
            joined(heart, "the heartbeat, which must not wait for a write in flight", 10)
            assert beat == {"lost": set()}, "the heartbeat waited for a write in flight"
            leases.fence("a", Store.op_action("a", 1, 0, 0, "1"))(conn)
        assert logged(store, "a") == ["1"] and logged(store, "b") == ["1"]
        assert leases.renew() == set()
    finally:
        store.close()


def test_a_write_in_the_same_batch_as_a_refused_one_still_commits(db_url):
    store = Store(db_url, auto_upgrade=True)
    try:
        mine, theirs = Leases(store.engine, "mine"), Leases(store.engine, "theirs")
        new_table(store, mine, "a")
        new_table(store, theirs, "b")

        async def both() -> list[BaseException | None]:
            return await asyncio.gather(
                store.write(mine.fence("a", Store.op_action("a", 1, 0, 0, "1"))),
                store.write(mine.fence("b", Store.op_action("b", 1, 0, 0, "1"))),
                return_exceptions=True)

        ok, refused = asyncio.run(both())
        assert ok is None and isinstance(refused, Fenced)
        assert logged(store, "a") == ["1"] and logged(store, "b") == []
    finally:
        store.close()


@pytest.mark.databases("postgresql")  # row locks: SQLite lets one writer in at a time
def test_a_process_paused_inside_its_heartbeat_does_not_keep_its_tables(db_url):
    """A heartbeat locks the process's lease rows until it commits. A process paused
    between its UPDATE and its COMMIT (SIGSTOP, a frozen machine) held them against every
    takeover until it woke: CI's failover test once waited 22.5 s for the other process to
    take the tables over. PostgreSQL now ends such a transaction once it sits idle for
    ``idle_ms``; the paused heartbeat's commit then fails, and the next one finds the
    table lost."""
    store = Store(db_url, auto_upgrade=True)
    ahead = [0.0]
    try:
        paused = Leases(store.engine, "paused", ttl=30, idle_ms=300)
        other = Leases(store.engine, "other", ttl=30, ahead=lambda: ahead[0], idle_ms=300)
        new_table(store, paused)
        inside, wake = threading.Event(), threading.Event()

        @event.listens_for(store.engine, "after_execute")
        def pause_after_the_update(conn, clause, *_args):  # type: ignore[no-untyped-def]
            if threading.current_thread().name == "heartbeat" \
                    and str(clause).lstrip().startswith("UPDATE parlour_leases"):
                inside.set()
                assert wake.wait(10), "the test did not wake the heartbeat"

        beat: dict[str, object] = {}

        def heartbeat() -> None:
            try:
                beat["lost"] = paused.renew()
            except exc.DBAPIError as err:  # PostgreSQL's idle_in_transaction timeout
                beat["error"] = err

        thread = threading.Thread(target=heartbeat, name="heartbeat")
        thread.start()
        try:
            assert inside.wait(10), "the heartbeat did not renew its leases"
            ahead[0] = 31.0  # its lease runs out while it sleeps
            # PostgreSQL ends the paused transaction 0.3 s in: the claim, which waits up
            # to LOCK_WAIT_MS for the row, gets it (before, it gave up and found None)
            assert other.claim("t1") == 2
        finally:
            wake.set()
            joined(thread, "the paused heartbeat", 10)
            event.remove(store.engine, "after_execute", pause_after_the_update)
        assert "error" in beat, beat  # its transaction was ended under it
        assert paused.renew() == {"t1"}  # the next heartbeat lets the table go
    finally:
        store.close()


@pytest.mark.databases("postgresql")  # several processes share only a PostgreSQL database
def test_a_second_process_leaves_the_first_ones_tables_alone_then_takes_them_over(
        tmp_path):
    """Today's harm (issue 19): a second server on the same database rebuilt every
    unfinished table and ran its bots too. Now it leaves them to their owner, and takes
    them over (by replay, bots and all) once the owner hands them over."""
    db = tmp_path / "shared.sqlite3"
    with app_client(db, bot_pause=0.05) as one:
        table = create(one, BOTS4)["table"]["id"]
        hub_one = one.app.state.hub
        wait_until(lambda: hub_one.tables[table].version >= 3, "three moves at the first")
        with app_client(db, bot_pause=0.05) as two:
            hub_two = two.app.state.hub
            assert table not in hub_two.tables  # restore() left it to its owner
            res = two.get(f"/api/tables/{table}")
            assert res.status_code == 503 and res.json()["error"]["code"] == "unavailable"
            time.sleep(1.5)  # heartbeats: the second still does not take it
            assert table not in hub_two.tables
            at = hub_one.tables[table].version
            one.__exit__(None, None, None)  # the first stops: it hands its leases over
            wait_until(lambda: table in hub_two.tables, "the second to take the table over", 5)
            moved = hub_two.tables[table]
            assert moved.version >= at
            wait_until(lambda: moved.version >= at + 4, "four moves at the second")
    with connect(db) as conn:
        idx = [r[0] for r in conn.execute(select(actions_t.c.idx)
                                          .where(actions_t.c.table_id == table)
                                          .order_by(actions_t.c.idx))]
    assert idx == list(range(len(idx))) and len(idx) >= at + 4


def test_the_live_processes_and_their_tables_are_one_query(db_url):
    """Each process's presence row says it is alive (issue 31, the room's balance): the
    load counts the tables of live processes only, and a gone process drops out of it
    once its row runs out (its presence row is never a table to take over)."""
    store = Store(db_url, auto_upgrade=True)
    try:
        later = [0.0]
        one = Leases(store.engine, "one", ttl=5, ahead=lambda: later[0])
        two = Leases(store.engine, "two", ttl=5, ahead=lambda: later[0])
        one.arrive()
        two.arrive()
        new_table(store, one, "t1")
        new_table(store, one, "t2")
        assert one.load() == {"one": 2, "two": 0}
        assert one.orphans() == []
        later[0] = 3.0
        one.renew()  # two is gone: it renews nothing
        later[0] = 6.0
        assert one.load() == {"one": 2}
        assert one.orphans() == [] and one.stale_orphans() == []
    finally:
        store.close()
