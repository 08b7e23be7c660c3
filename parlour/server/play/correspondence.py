"""Correspondence tables (issue 34, item 4): games that wait for you. Each person has a chosen
time for a move (:data:`MIN_MOVE_SECONDS` to :data:`MAX_MOVE_SECONDS`) instead of the turn
timer; no stand-in ever plays a seat there. When a move's time runs out, a rated match is
lost by the side that did not move (the others win) and the table closes; at a casual table
the seat is freed, for the person or someone else to take, and nobody's move is awaited
until it is taken.

Nothing of a table that waits for a person stays in a server: the move awaited, whose it is
and when it is due are columns of its row (``move_seconds``, ``deadline``, ``waiting_on``;
migration 0016), written with the action (or the deal, or the seat's change) that made it
so. A table awaiting a person, with nobody at it for :data:`IDLE_LET_GO` seconds, is let go
(its lease too): no process restores or claims it (:meth:`Store.unfinished_ids`, the leases'
``orphans``) until someone opens it, or until the sweep finds its move overdue
(:meth:`Correspondence.tick`, each round of the table life).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from parlour.engine import Game, Seat, State
from parlour.message import Term
from parlour.registry import spec
from parlour.server.cluster.lease import Elsewhere
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.players import SeatKind, op_forfeit
from parlour.server.play.room import Room
from parlour.server.play.table import Table
from parlour.server.play.turns import awaited
from parlour.server.storage.store import Op, Store, both

log = logging.getLogger("parlour.server")

MIN_MOVE_SECONDS, MAX_MOVE_SECONDS = 3600, 3 * 24 * 3600  # an hour to three days a move
IDLE_LET_GO = 120.0  # seconds a table awaiting a person stays in memory with nobody at it


def check_move_seconds(game: Game, seconds: object) -> int | None:
    """A table's time per move, if it is a correspondence table (None: it is not)."""
    if seconds is None:
        return None
    if not isinstance(seconds, int) or isinstance(seconds, bool) \
            or not MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS:
        raise ProtocolError("bad_options", "a correspondence table gives {min} to {max} "
                                           "seconds a move", min=MIN_MOVE_SECONDS,
                            max=MAX_MOVE_SECONDS)
    found = spec(game.id)
    if found.traits.solitaire:
        raise ProtocolError("bad_options", "{game} is played alone: it cannot be played by "
                                           "correspondence", game=Term("game", game.name))
    if found.traits.timed_phases:
        raise ProtocolError("bad_options", "{game} has a timed phase: it cannot be played by "
                                           "correspondence", game=Term("game", game.name))
    return seconds


def awaiting(table: Table, seats: list[Seat], now: float) -> Op:
    """The write that says the table awaits ``seats``' move (due a move's time from ``now``),
    and the same in memory: the views show the deadline (``turn``)."""
    assert table.move_seconds is not None
    table.deadline = now + table.move_seconds if seats else None
    return Store.op_awaiting(table.id, table.deadline, seats)


def with_awaiting(table: Table, op: Op, after: State, finished: bool, now: float) -> Op:
    """``op`` (an action, a deal), and at a correspondence table the move it awaits next,
    in the state ``after`` it (nothing is read from the state at any other table: this runs
    on every action)."""
    if table.move_seconds is None:
        return op
    return both(op, awaiting(table, [] if finished else awaited(table, list(after.to_act)),
                             now))


class Correspondence:
    """The correspondence tables' overdue moves, and letting go of the ones that wait:
    ``get`` loads a table (the hub's ownership), ``free`` frees a seat (its seating),
    ``close`` closes a table with a note (its life)."""

    def __init__(self, room: Room, get: Callable[[str], Awaitable[Table | None]],
                 free: Callable[[Table, Seat], Awaitable[None]],
                 close: Callable[[Table, str], Awaitable[None]]) -> None:
        self.room = room
        self.get = get
        self.free = free
        self.close = close

    async def tick(self) -> dict[str, int]:
        """A round of the table life: expire the overdue moves (loading their tables), let
        go of the tables that wait with nobody at them."""
        done = {"overdue": 0, "let go": 0}
        now = self.room.settings.now()
        try:
            ids = await asyncio.to_thread(self.room.store.overdue, now)
        except Exception as err:
            if not self.room.outages.note(err):
                log.exception("the overdue correspondence moves could not be read")
            ids = []
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except (Elsewhere, ProtocolError):
                continue  # another process holds it (and sweeps it), or it is quarantined
            if table is not None and await self.expire(table):
                done["overdue"] += 1
        idle = self.room.settings.monotonic() - IDLE_LET_GO
        for table in list(self.room.tables.values()):
            if table.move_seconds is not None and table.status == "playing" \
                    and not table.conns and not table.bot_tasks and table.touched < idle \
                    and awaited(table):
                await self.let_go(table)
                done["let go"] += 1
        return done

    async def expire(self, table: Table) -> bool:
        """The move ``table`` awaits is overdue: a rated match is lost by the side that did
        not move; at a casual table its seats are freed. False if it was not overdue."""
        now = self.room.settings.now()
        async with table.lock:
            seats = awaited(table)
            if table.status != "playing" or not seats or table.deadline is None \
                    or table.deadline > now:
                return False
            if table.rated:
                seat = seats[0]
                await self.room.write(both(
                    op_forfeit(table.id, table.match, table.game.id,
                               [SeatKind(s.kind, s.bot) for s in table.seats], seat,
                               table.seats[seat].account_id, now),
                    awaiting(table, [], now)), table)
        if table.rated:
            log.info("table %s: seat %d's correspondence move was overdue: the rated match "
                     "is its loss", table.id, seats[0])
            await self.close(table, "forfeited")
            return True
        for seat in seats:
            log.info("table %s: seat %d's correspondence move was overdue: the seat is free",
                     table.id, seat)
            await self.free(table, seat)
        return True

    async def let_go(self, table: Table) -> None:
        """Forget ``table`` here (and give up its lease): it waits as a row."""
        self.room.lose(table, handed=True)
        if self.room.leases is not None:
            await asyncio.to_thread(self.room.leases.release, [table.id])
        log.info("table %s: waits for a correspondence move as a row", table.id)
