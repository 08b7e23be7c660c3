"""The room every live table of this process is in, and the one path by which a table's
changes reach the database.

The hub's parts (:mod:`parlour.server.play.tables` puts them together) each take one concern:
the table's life, its seats, its play, its ownership, its desk. What they share is here:
the tables themselves, the settings and the store, the clocks and the bots that hand moves
in, and the write that is fenced by a table's lease. With several processes on one
database, this process holds only the tables it owns (their leases:
:mod:`parlour.server.cluster.lease`); a write whose lease moved lets the table go (:meth:`lose`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from parlour.engine import Seat
from parlour.server.cluster.lease import Leases
from parlour.server.edge.limits import TableQuota
from parlour.server.edge.protocol import ProtocolError
from parlour.server.play.clock import ReactionClock, Submit
from parlour.server.play.runner import BotRunner
from parlour.server.play.table import RECONNECT, Table
from parlour.server.play.turns import TurnTimer
from parlour.server.settings import Settings
from parlour.server.storage.store import Fenced, Op, Store, StoreError

log = logging.getLogger("parlour.server")


class Room:
    """Every live table, what its parts share, and the fenced write."""

    def __init__(self, settings: Settings, store: Store, submit: Submit,
                 stand_in: Callable[[Table, Seat], None]) -> None:
        self.settings = settings
        self.store = store
        self.outages = store.outages  # the database's and Redis's (parlour.server.cluster.outages)
        self.tables: dict[str, Table] = {}
        self.clock = ReactionClock(submit, settings.reaction_slowdown)
        self.runner = BotRunner(settings, submit)
        self.runner.outages = self.clock.outages = self.outages
        self.turns = TurnTimer(stand_in, settings.now, settings.call_later)
        self.react = self.clock.react
        self._retrying: set[asyncio.Task[None]] = set()  # deals the database refused, forfeits
        self.quota = TableQuota(settings.limits, settings.search_tables_per_client)
        # With several processes on one database (parlour.server.cluster.lease): the leases, and
        # what to do when this process starts or stops owning a table (the relay's hooks).
        self.leases: Leases | None = None
        self.taking = True  # takes tables nobody owns (not while it drains)
        self.actions = 0  # actions applied (a metric)
        self.intent_done: Callable[[float], None] = lambda seconds: None  # (a metric)
        # a table just moved on (a deal, an action): whose turn it became is told
        # wherever they are (the hub's room bus, parlour.server.people.presence)
        self.on_turn: Callable[[Table], None] = lambda table: None
        # and a seat dealt again: the others seated there are offered the rematch
        self.on_again: Callable[[Table, Seat | None], None] = lambda table, seat: None
        self.on_own: list[Callable[[Table], Awaitable[None]]] = []
        self.on_lose: list[Callable[[Table], None]] = []

    def keep(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task held until it is done (a deal tried again, a forfeit):
        :meth:`stop` cancels those still running."""
        task = asyncio.create_task(work)
        self._retrying.add(task)
        task.add_done_callback(self._retrying.discard)

    # ------------------------------------------------------------------ the write
    def fenced(self, table: Table | None, op: Op) -> Op:
        """``op`` as a write of ``table``: refused unless this process still owns it."""
        if table is None or self.leases is None:
            return op
        return self.leases.fence(table.id, op)

    def moved(self, table: Table) -> ProtocolError:
        """A write of ``table`` was fenced: another process owns it now. Let it go; the
        error to answer with."""
        self.lose(table)
        return ProtocolError("unavailable", "this table moved to another server: connect "
                                            "again")

    async def write(self, op: Op, table: Table | None = None) -> None:
        """Commit ``op`` (a change of ``table``, fenced by its lease when there are
        leases); ``unavailable`` (503) if the database refuses."""
        try:
            await self.store.write(self.fenced(table, op))
        except Fenced:
            assert table is not None
            raise self.moved(table) from None
        except StoreError:
            raise ProtocolError("unavailable", "the parlour could not save that: try again "
                                               "in a moment") from None

    # ------------------------------------------------------------------ owning
    async def owning(self, table: Table) -> None:
        """This process has just started owning ``table`` (made it or took its lease):
        returns once the hooks are done (the relay listens to the table's channel)."""
        for hook in self.on_own:
            await hook(table)

    def lose(self, table: Table, handed: bool = False) -> None:
        """This process no longer owns ``table`` (its lease moved, or it ``handed`` it
        over): stop its bots and timers, forget it, and ask its clients to connect again
        (they land on a process that forwards them to the new owner)."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        if self.leases is not None:
            self.leases.forget(table.id)
        table.status = "moved"
        if table.reaction is not None:
            table.reaction.stop()
            table.reaction = None
        self.turns.stop(table)
        for seat in list(table.bot_tasks):
            self.runner.stop(table, seat)
        for hook in self.on_lose:  # first: the relay takes its clients off quietly
            hook(table)
        for conn in list(table.conns):
            conn.kick(RECONNECT)
        if not handed:
            log.warning("table %s: this process no longer owns it", table.id)

    # ------------------------------------------------------------------ bots
    @property
    def procs(self) -> ProcessPoolExecutor | None:
        """The bots' worker processes, once a searching bot has sat."""
        return self.runner.procs

    def schedule_bots(self, table: Table) -> None:
        self.runner.schedule(table)

    async def stop(self) -> None:
        """Stop every table's timers and bots, and the tasks still trying (shutdown)."""
        for task in self._retrying:
            task.cancel()
        for table in self.tables.values():
            if table.reaction is not None:
                table.reaction.stop()
            self.turns.stop(table)
        await self.runner.close(list(self.tables.values()))
