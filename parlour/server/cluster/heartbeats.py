"""Several server processes on one database: the heartbeat of this process's leases, the
look for tables nobody owns, and the hand-over when the process drains.

A :class:`Cluster` is set up by the app's lifespan when leases are on (any database but
SQLite, or ``--redis``; see :mod:`parlour.server.cluster.lease`). Every :data:`~lease.BEAT`
seconds it renews this process's leases (a table it lost is let go at once) and takes
over tables whose owner died or handed them over: it replays them from the database and
sets their bots and timers going (:meth:`Hub.get`), so a table's play resumes on another
process within ``TTL + BEAT`` seconds of its owner's death.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from parlour.server.cluster.lease import BEAT, PRESENCE, Leases
from parlour.server.cluster.outages import DATABASE
from parlour.server.edge.protocol import ProtocolError
from parlour.server.play.table import Table
from parlour.server.play.tables import Hub

log = logging.getLogger("parlour.server")

DRAIN_WAIT = 1.0  # seconds a drain waits for a table's write in flight
REBALANCE_EVERY = 2.0  # seconds between two tables a process hands over to even the load


class Cluster:
    """This process's part in a parlour of several processes."""

    def __init__(self, hub: Hub, leases: Leases) -> None:
        self.hub = hub
        self.leases = leases
        self.draining = False
        self.load: dict[str, int] = {}  # live process -> tables it holds, as last read
        self.offer: Callable[[str, str], Awaitable[None]] | None = None  # the relay's
        self._task: asyncio.Task[None] | None = None
        self._handing: asyncio.Task[None] | None = None
        self._balanced = 0.0  # when this process last handed a table over to even the load
        self._moving: set[str] = set()
        self._background: set[asyncio.Task[bool]] = set()  # hand-overs under way
        hub.leases = leases
        hub.on_own.append(self._placed)

    def start(self) -> None:
        self._task = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        for task in (self._task, self._handing):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    async def _beat(self) -> None:
        while True:
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if not self.hub.outages.note(err):  # an outage: one line when it begins
                    log.exception("the lease heartbeat failed")
            else:
                self.hub.outages.answered(DATABASE)
            await asyncio.sleep(BEAT * random.uniform(0.8, 1.0))

    async def beat(self) -> None:
        """One heartbeat: renew, let go of lost tables, take orphaned ones (this
        process's share of them), and even the load. A table let go from memory
        (finished and idle: :meth:`Hub.sweep`) is no longer renewed: its lease runs out,
        and whichever process is asked for it next takes it."""
        if self.leases.presence not in self.leases.tokens and not self.draining:
            await asyncio.to_thread(self.leases.arrive)
        for table_id in list(self.leases.tokens):
            if table_id not in self.hub.tables and not self.hub.loading(table_id) \
                    and not table_id.startswith(PRESENCE):
                self.leases.forget(table_id)
        lost = await asyncio.to_thread(self.leases.renew)
        for table_id in lost:
            table = self.hub.tables.get(table_id)
            if table is not None:
                self.hub.lose(table)
        if self.draining:
            return
        self.load = await asyncio.to_thread(self.leases.load)
        orphans = await asyncio.to_thread(self.leases.orphans)
        wanted = orphans[:self.share(len(orphans))]
        wanted += [t for t in await asyncio.to_thread(self.leases.stale_orphans)
                   if t not in wanted]
        for table_id in wanted:
            if table_id in self.hub.tables:
                continue
            try:
                await self.hub.get(table_id)
            except ProtocolError:
                continue  # another process took it first, or it could not be restored
        await self.rebalance()

    def share(self, orphans: int) -> int:
        """How many of ``orphans`` tables this process takes: as many as bring it up to
        the room's even share, so that moved tables go to the processes owning fewest."""
        if not self.load:
            return orphans
        mine = self.load.get(self.leases.owner, 0)
        even = -(-(sum(self.load.values()) + orphans) // max(1, len(self.load)))
        return max(0, even - mine)

    def lightest(self) -> tuple[str, int] | None:
        """The live process owning fewest tables (not this one), and how many."""
        others = {p: n for p, n in self.load.items() if p != self.leases.owner}
        if not others:
            return None
        owner = min(others, key=lambda p: (others[p], p))
        return owner, others[owner]

    async def rebalance(self) -> None:
        """If this process owns two or more tables than the lightest one, hand it one
        (at most one every :data:`REBALANCE_EVERY` seconds: a process that joins takes
        its share over time, each table moved between two of its actions)."""
        now = asyncio.get_running_loop().time()
        lightest = self.lightest()
        if lightest is None or now - self._balanced < REBALANCE_EVERY:
            return
        mine = sum(1 for t in self.hub.tables.values() if t.is_open)
        if mine - lightest[1] < 2:
            return
        movable = [t for t in self.hub.tables.values() if t.is_open and t.id not in self._moving]
        if not movable:
            return
        self._balanced = now
        # the one whose move costs least: fewest clients on this process's own sockets
        table = min(movable, key=lambda t: (len(t.conns), t.lock.locked(), t.id))
        await self.hand_over(table, lightest[0])

    async def _placed(self, table: Table) -> None:
        """A table this process has just made or taken: if another live process owns
        fewer, it goes there (a new table before anyone plays at it)."""
        if self.draining or not self.load or table.status != "waiting" or table.version \
                or self.leases.tokens.get(table.id) != 1:  # made here, not taken over
            return
        lightest = self.lightest()
        mine = self.load.get(self.leases.owner, 0)
        if lightest is not None and lightest[1] < mine:
            self.load[lightest[0]] = lightest[1] + 1  # until the next heartbeat reads it
            self.load[self.leases.owner] = mine - 1
            asyncio.get_running_loop().call_soon(self._spawn_hand_over, table, lightest[0])

    def _spawn_hand_over(self, table: Table, to: str) -> None:
        task = asyncio.get_running_loop().create_task(self.hand_over(table, to))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def hand_over(self, table: Table, to: str | None = None) -> bool:
        """Hand ``table`` over between two of its actions: let it go here (its clients
        asked to connect again), its lease runs out now, and ``to`` (a live process) is
        asked to take it at once (else the least loaded takes it at its heartbeat)."""
        if table.id in self._moving:
            return False
        self._moving.add(table.id)
        try:
            try:  # between two actions: a write in flight finishes first
                async with asyncio.timeout(DRAIN_WAIT):
                    await table.lock.acquire()
            except TimeoutError:
                log.warning("table %s: handed over with a write still in flight", table.id)
                locked = False
            else:
                locked = True
            try:
                if self.hub.tables.get(table.id) is not table:
                    return False
                self.hub.lose(table, handed=True)
                await asyncio.to_thread(self.leases.release, [table.id])
            finally:
                if locked:
                    table.lock.release()
            if to is not None and self.offer is not None:
                await self.offer(table.id, to)
            log.info("table %s: handed over to %s", table.id, to or "the room")
            return True
        finally:
            self._moving.discard(table.id)

    def begin_drain(self) -> None:
        """SIGTERM: stop taking tables (``/health`` answers 503 from now on) and hand them
        over one by one, each between two of its actions, to the processes owning fewest."""
        if self.draining:
            return
        self.draining = True
        self.hub.taking = False
        self._handing = asyncio.get_running_loop().create_task(self._hand_all_over())

    async def _hand_all_over(self) -> None:
        handed = 0
        try:  # no longer among the live processes: none hands it a table from now on
            await asyncio.to_thread(self.leases.release, [self.leases.presence])
            self.load = await asyncio.to_thread(self.leases.load)
        except Exception as err:
            if not self.hub.outages.note(err):
                log.exception("draining: the room's load could not be read")
        for table in list(self.hub.tables.values()):
            if not table.is_open:
                continue
            lightest = self.lightest()
            if lightest is not None:
                self.load[lightest[0]] = lightest[1] + 1
            try:
                handed += await self.hand_over(table, lightest[0] if lightest else None)
            except Exception as err:
                if not self.hub.outages.note(err):
                    log.exception("table %s: the hand-over failed", table.id)
        log.info("draining: handed %d tables over one by one", handed)

    async def drain(self) -> int:
        """Stop taking tables and hand every lease still held over: each table is let go
        here (its clients asked to connect again) and its lease runs out now, for another
        process to take at its next heartbeat. Returns how many tables were handed over."""
        self.draining = True
        self.hub.taking = False
        tables = list(self.hub.tables.values())
        for table in tables:
            try:  # let a write in flight finish first (the fence would refuse it anyway)
                async with asyncio.timeout(DRAIN_WAIT):
                    await table.lock.acquire()
            except TimeoutError:
                log.warning("table %s: handed over with a write still in flight", table.id)
            else:
                table.lock.release()
            self.hub.lose(table, handed=True)
        await asyncio.to_thread(self.leases.release,
                                [t.id for t in tables] + [self.leases.presence])
        log.info("handed %d tables over to the other processes", len(tables))
        return len(tables)
