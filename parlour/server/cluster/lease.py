"""Which server process owns each table: leases in the database, with fencing tokens.

Several ``parlour serve`` processes may share one PostgreSQL database. Each live table has
exactly one owner at a time, the process that applies its actions, runs its bots and times
its phases; the others forward their clients to it (:mod:`parlour.server.cluster.relay`).

A lease is a row of ``parlour_leases``: the owner, a **fencing token**, when the lease
runs out and when its owner took it. Times are the database's clock, so processes on
machines whose clocks disagree still agree on who holds a lease.

* **Claiming** a table whose lease has run out (or that has none) sets this process as
  owner and adds one to the token, in one ``UPDATE ... WHERE expires < now``: of several
  processes trying at once exactly one succeeds.
* **Heartbeats**: every :data:`BEAT` seconds the owner pushes the end of all its leases to
  now + :data:`TTL` in one statement, and learns from the rows it got back which tables it
  still owns; one it lost is let go at once (:meth:`Hub.lose`).
* **The fence**: every write of a table's log runs, in its own transaction, an ``UPDATE``
  that matches only the lease row with this process's token and renews it
  (:meth:`Leases.fence`); a heartbeat skips the rows such writes hold locked. A
  process that was paused past its lease and woke up after another took the table over
  finds no such row: its write is refused (:class:`~parlour.server.storage.store.Fenced`) and
  nothing of it is committed. In PostgreSQL the ``UPDATE`` also locks the lease row until
  the write commits, so a takeover waits for a write in flight and the new owner's replay
  sees it.

Why the database and not Redis or advisory locks: the fence has to be checked by the same
database transaction as the write it guards, so the token must live in that database; a
lease in Redis would need a second, separate check. ``pg_try_advisory_lock`` is tied to a
connection (a pool's connection outlives a paused process's right to write) and carries no
token. A row per table costs one small ``UPDATE`` per write, which group commit shares.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    delete,
    exc,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.sql import expression

from parlour.server.edge.protocol import ProtocolError
from parlour.server.storage.store import Fenced, Op, TableRow, leases_t, tables_t

log = logging.getLogger("parlour.server")

TTL = 2.5  # seconds a lease lasts without a heartbeat (five missed beats)
BEAT = 0.5  # seconds between heartbeats (and between looks for tables nobody owns)
CLAIMS_PER_BEAT = 20  # orphaned tables one process takes at most per look
LOCK_WAIT_MS = 2000  # how long a claim waits for a lease row locked by a write in flight
PRESENCE = "~"  # the first character of a process's presence row's key (Leases.presence)
PRESENCE_KEPT = 3600.0  # seconds a gone process's presence row stays before it is cleared
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a lock_timeout that ran out
IDLE_WRITE_MS = 10_000  # a write's transaction left idle this long is ended by PostgreSQL


def process_id() -> str:
    """This process's name among the owners: host, pid and random bits (a restarted
    process with the same pid is another owner)."""
    return f"{socket.gethostname()[:30]}-{os.getpid()}-{secrets.token_hex(4)}"


def db_now(engine: Engine) -> ColumnElement[Any]:
    """Now, in epoch seconds, by the database's clock."""
    if engine.dialect.name == "postgresql":
        return func.extract("epoch", func.clock_timestamp())
    if engine.dialect.name == "sqlite":
        return (func.julianday("now") - 2440587.5) * 86400.0
    return func.unix_timestamp()


#: The limits of a transaction that locks lease rows (:meth:`Leases._locking`); without
#: a wait (NULL), ``lock_timeout`` stays as it was.
_LOCK_LIMITS = expression.text(
    "SELECT set_config('idle_in_transaction_session_timeout', :idle, true), "
    "set_config('lock_timeout', coalesce(:wait, current_setting('lock_timeout')), true)")


class Elsewhere(ProtocolError):
    """The table is owned by another process (its rows as this process read them, for a
    read-only copy: :mod:`parlour.server.cluster.relay`)."""

    def __init__(self, row: TableRow) -> None:
        super().__init__("unavailable", "this table is served by another process of the "
                                        "parlour: try again in a moment")
        self.row = row


class Leases:
    """This process's side of the leases: claim, renew, fence, let go."""

    def __init__(self, engine: Engine, owner: str | None = None, ttl: float = TTL,
                 ahead: Callable[[], float] | None = None, idle_ms: int = IDLE_WRITE_MS
                 ) -> None:
        self.engine = engine
        self.owner = owner or process_id()
        self.ttl = ttl
        #: How long PostgreSQL lets a transaction that locks lease rows sit idle before it
        #: ends it (:meth:`_locking`); a test shortens it.
        self.idle_ms = idle_ms
        #: Seconds this process's view of the leases is ahead of the database's clock: none
        #: in play; a test of the leases' logic moves time on with it instead of sleeping.
        self.ahead = ahead
        self.tokens: dict[str, int] = {}  # table id -> the token this process holds
        self.moves = 0  # leases taken over from another owner (a metric)
        #: Held by a renewal and a release (each in a thread of its own): a renewal that
        #: read the leases held before a release pushed back the leases just let go, and a
        #: restarted process found its tables still "served by another process".
        self._renewing = threading.Lock()

    def _locking(self, conn: Connection, lock_wait_ms: int | None = None) -> None:
        """Bound what ``conn``'s transaction, which locks lease rows until it ends, may
        hold: should this process be paused or hang inside it (SIGSTOP, a frozen machine),
        PostgreSQL ends it once it sits idle for :attr:`idle_ms`, so that it cannot hold
        the rows against a takeover for long (a heartbeat paused between its UPDATE and its
        COMMIT once held its tables until it woke; a killed process's transaction ends at
        once, with its connection). With ``lock_wait_ms``, a row another transaction holds
        is waited for that long at most. One statement, ``SET LOCAL`` by ``set_config``."""
        if conn.dialect.name != "postgresql":
            return
        conn.execute(_LOCK_LIMITS, {"idle": str(int(self.idle_ms)), "wait": (
            None if lock_wait_ms is None else str(int(lock_wait_ms)))})

    def _now(self) -> ColumnElement[Any]:
        if self.ahead is None:
            return db_now(self.engine)
        return db_now(self.engine) + literal(self.ahead())

    # ------------------------------------------------------------------ taking
    def create_op(self, table_id: str) -> Op:
        """The lease of a new table, held by this process from the start (token 1): run
        in the same transaction as the table's creation (then :meth:`hold` it)."""
        def op(conn: Connection) -> None:
            conn.execute(insert(leases_t).values(table_id=table_id, owner=self.owner, token=1,
                                                 expires=self._now() + self.ttl,
                                                 taken=self._now()))
        return op

    def claim(self, table_id: str) -> int | None:
        """Take the lease of ``table_id`` if nobody holds it (or it ran out): the new
        token, or None if another process holds it. Blocks (run it in a thread)."""
        held = self.tokens.get(table_id)
        try:
            row = self._take(table_id)
        except exc.OperationalError as err:  # its row stayed locked (a write of its owner's)
            if self.engine.dialect.name == "postgresql" \
                    and getattr(err.orig, "sqlstate", None) != LOCK_NOT_AVAILABLE:
                raise  # the database is out of reach
            return None
        if row is None:
            if not self._insert(table_id):
                return None
            token = 1
        else:
            token = int(row[0])
        if held != token:
            self.moves += 1
            log.info("table %s: this process took its lease (token %d)", table_id, token)
        self.tokens[table_id] = token
        return token

    def _take(self, table_id: str) -> Any:
        with self.engine.begin() as conn:
            self._locking(conn, LOCK_WAIT_MS)  # wait for a write in flight only
            return conn.execute(
                update(leases_t)
                .where(leases_t.c.table_id == table_id,
                       (leases_t.c.expires < self._now()) | (leases_t.c.owner == self.owner))
                .values(owner=self.owner, expires=self._now() + self.ttl,
                        token=expression.case(
                            (leases_t.c.owner == self.owner, leases_t.c.token),
                            else_=leases_t.c.token + 1),
                        taken=expression.case(
                            (leases_t.c.owner == self.owner, leases_t.c.taken),
                            else_=self._now()))
                .returning(leases_t.c.token, leases_t.c.owner)).first()

    def _insert(self, table_id: str) -> bool:
        """A lease for a table that has none yet (a table the migration did not see)."""
        try:
            with self.engine.begin() as conn:
                self._locking(conn)
                exists = conn.execute(select(tables_t.c.id)
                                      .where(tables_t.c.id == table_id)).first()
                if exists is None:
                    return False
                conn.execute(insert(leases_t).values(table_id=table_id, owner=self.owner,
                                                     token=1, expires=self._now() + self.ttl,
                                                     taken=self._now()))
            return True
        except exc.IntegrityError:  # another process made it first: it holds it
            return False

    def owner_of(self, table_id: str) -> tuple[str, bool] | None:
        """Who holds ``table_id``'s lease and whether it is still running; None if there
        is no lease."""
        with self.engine.connect() as conn:
            row = conn.execute(select(leases_t.c.owner, leases_t.c.expires >= self._now())
                               .where(leases_t.c.table_id == table_id)).first()
        return None if row is None else (str(row[0]), bool(row[1]))

    def orphans(self, limit: int = CLAIMS_PER_BEAT, stale: bool = False) -> list[str]:
        """Tables waiting or playing whose lease nobody holds now (their owner died or
        handed them over), but correspondence tables awaiting a person's move (loaded when
        someone comes, or when the move is overdue), in random order so that processes
        looking at once spread them (with ``stale``, only those whose lease ran out over a
        lease's time ago)."""
        ran_out = self._now() - (self.ttl if stale else 0.0)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(leases_t.c.table_id)
                .join(tables_t, tables_t.c.id == leases_t.c.table_id)
                .where(tables_t.c.status.in_(("waiting", "playing")),
                       tables_t.c.waiting_on.is_(None),  # (a correspondence table that
                       leases_t.c.expires < ran_out)       # awaits a person stays a row)
                .order_by(func.random()).limit(limit))
            return [r[0] for r in rows]

    # ------------------------------------------------------------------ keeping
    def renew(self) -> set[str]:
        """The heartbeat: push back the end of every lease this process holds; returns the
        tables it held and lost (another process took them over meanwhile)."""
        with self._renewing:
            return self._renew()

    def _renew(self) -> set[str]:
        before = dict(self.tokens)
        if not before:
            return set()
        mine = (leases_t.c.owner == self.owner, leases_t.c.table_id.in_(list(before)))
        with self.engine.begin() as conn:
            self._locking(conn)
            # A lease row a write in flight has locked (its fence, below) is skipped, not
            # waited for: that write renews it as it commits. Waiting took the rows in
            # another order than a group commit of several tables' writes, and PostgreSQL
            # broke the deadlock only after a second (deadlock_timeout), aborting one.
            free = (select(leases_t.c.table_id).where(*mine)
                    .with_for_update(skip_locked=True).scalar_subquery())
            rows = list(conn.execute(update(leases_t).where(leases_t.c.table_id.in_(free))
                                     .values(expires=self._now() + self.ttl)
                                     .returning(leases_t.c.table_id, leases_t.c.token)))
            renewed = {str(t) for t, _ in rows}
            if len(renewed) < len(before):  # the skipped ones, read as they stand
                rows += conn.execute(select(leases_t.c.table_id, leases_t.c.token)
                                     .where(*mine, leases_t.c.table_id.not_in(renewed)))
        held = {(str(t), int(token)) for t, token in rows}
        lost = {t for t, token in before.items() if (t, token) not in held}
        for table_id in lost:
            if self.tokens.get(table_id) == before[table_id]:
                del self.tokens[table_id]
        return lost

    def fence(self, table_id: str, op: Op) -> Op:
        """``op``, refused (:class:`Fenced`) unless this process still holds the lease with
        the token it took: checked in the write's own transaction."""
        token = self.tokens.get(table_id)

        def fenced(conn: Connection) -> None:
            if token is None:
                raise Fenced(f"table {table_id}: this process does not hold its lease")
            self._locking(conn)  # the lease row stays locked until the write commits
            done = conn.execute(update(leases_t)
                                .where(leases_t.c.table_id == table_id,
                                       leases_t.c.owner == self.owner,
                                       leases_t.c.token == token)
                                .values(token=literal(token), expires=self._now() + self.ttl))
            if done.rowcount != 1:
                raise Fenced(f"table {table_id}: its lease moved to another process "
                             f"(token {token} is stale)")
            op(conn)
        return fenced

    def release(self, table_ids: list[str] | None = None) -> None:
        """Hand leases over (a drain, a rebalance): they run out now, for another process
        to take (the one it is offered to at once, else the least loaded at its next
        heartbeat). Blocks (run it in a thread)."""
        with self._renewing:
            ids = list(self.tokens) if table_ids is None else table_ids
            if not ids:
                return
            with self.engine.begin() as conn:
                self._locking(conn)
                conn.execute(update(leases_t).where(leases_t.c.owner == self.owner,
                                                    leases_t.c.table_id.in_(ids))
                             .values(expires=self._now() - 0.001))
            for table_id in ids:
                self.tokens.pop(table_id, None)

    # ------------------------------------------------------------------ the room
    @property
    def presence(self) -> str:
        """The key of this process's own lease row, which says it is alive: renewed with
        its tables' leases, it runs out with them. ``~`` is in no table id, and the row
        joins no table, so it is never an orphan."""
        return PRESENCE + hashlib.sha256(self.owner.encode()).hexdigest()[:15]

    def arrive(self) -> None:
        """Say this process is alive (its presence row, held from now on), and clear away
        the rows of processes gone for over :data:`PRESENCE_KEPT` seconds. Blocks."""
        key = self.presence
        with self.engine.begin() as conn:
            self._locking(conn)
            conn.execute(delete(leases_t).where(
                leases_t.c.table_id.like(PRESENCE + "%"),
                leases_t.c.expires < self._now() - PRESENCE_KEPT))
            done = conn.execute(update(leases_t).where(leases_t.c.table_id == key)
                                .values(owner=self.owner, token=1,
                                        expires=self._now() + self.ttl, taken=self._now()))
            if done.rowcount == 0:
                conn.execute(insert(leases_t).values(table_id=key, owner=self.owner, token=1,
                                                     expires=self._now() + self.ttl,
                                                     taken=self._now()))
        self.tokens[key] = 1

    def load(self) -> dict[str, int]:
        """The live processes (those whose presence row holds) and how many tables each
        holds now. Blocks."""
        present = func.max(expression.case((leases_t.c.table_id.like(PRESENCE + "%"), 1),
                                           else_=0))
        with self.engine.connect() as conn:
            rows = conn.execute(select(leases_t.c.owner, func.count(), present)
                                .where(leases_t.c.expires >= self._now())
                                .group_by(leases_t.c.owner))
            return {str(owner): int(count) - 1 for owner, count, alive in rows if alive}

    def stale_orphans(self, limit: int = CLAIMS_PER_BEAT) -> list[str]:
        """Orphans nobody took within a lease's time of their lease running out: any
        process takes them (the least loaded one did not, or is gone)."""
        return self.orphans(limit, stale=True)

    def hold(self, table_id: str, token: int = 1) -> None:
        self.tokens[table_id] = token

    def forget(self, table_id: str) -> None:
        self.tokens.pop(table_id, None)

