"""Several server processes on one database: the heartbeat of this process's leases, the
look for tables nobody owns, and the hand-over when the process drains.

A :class:`Cluster` is set up by the app's lifespan when leases are on (any database but
SQLite, or ``--redis``; see :mod:`parlour.server.lease`). Every :data:`~lease.BEAT`
seconds it renews this process's leases (a table it lost is let go at once) and takes
over tables whose owner died or handed them over: it replays them from the database and
sets their bots and timers going (:meth:`Hub.get`), so a table's play resumes on another
process within ``TTL + BEAT`` seconds of its owner's death.
"""

from __future__ import annotations

import asyncio
import logging
import random

from parlour.server.lease import BEAT, Leases
from parlour.server.outages import DATABASE
from parlour.server.protocol import ProtocolError
from parlour.server.tables import Hub

log = logging.getLogger("parlour.server")

DRAIN_WAIT = 1.0  # seconds a drain waits for a table's write in flight


class Cluster:
    """This process's part in a parlour of several processes."""

    def __init__(self, hub: Hub, leases: Leases) -> None:
        self.hub = hub
        self.leases = leases
        self.draining = False
        self._task: asyncio.Task[None] | None = None
        hub.leases = leases

    def start(self) -> None:
        self._task = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

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
        """One heartbeat: renew, let go of lost tables, take orphaned ones. A table let go
        from memory (finished and idle: :meth:`Hub.sweep`) is no longer renewed: its lease
        runs out, and whichever process is asked for it next takes it."""
        for table_id in list(self.leases.tokens):
            if table_id not in self.hub.tables and not self.hub.loading(table_id):
                self.leases.forget(table_id)
        lost = await asyncio.to_thread(self.leases.renew)
        for table_id in lost:
            table = self.hub.tables.get(table_id)
            if table is not None:
                self.hub.lose(table)
        if self.draining:
            return
        for table_id in await asyncio.to_thread(self.leases.orphans):
            if table_id in self.hub.tables:
                continue
            try:
                await self.hub.get(table_id)
            except ProtocolError:
                continue  # another process took it first, or it could not be restored

    async def drain(self) -> int:
        """Stop taking tables and hand every lease over: each table is let go here (its
        clients asked to connect again) and its lease runs out now, for another process
        to take at its next heartbeat. Returns how many tables were handed over."""
        self.draining = True
        tables = list(self.hub.tables.values())
        for table in tables:
            try:  # let a write in flight finish first (the fence would refuse it anyway)
                async with asyncio.timeout(DRAIN_WAIT):
                    await table.lock.acquire()
            except TimeoutError:
                log.warning("table %s: handed over with a write still in flight", table.id)
            else:
                table.lock.release()
            self.hub.lose(table)
        await asyncio.to_thread(self.leases.release, [t.id for t in tables])
        log.info("handed %d tables over to the other processes", len(tables))
        return len(tables)
