"""Leaving a rated match before its end: the leave counts as a loss now, and a seat away
(a stand-in plays it) past the limit forfeits the match for its side (docs/players.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from parlour.engine import Seat
from parlour.server.people.players import SeatKind, op_forfeit, op_left, seat_account
from parlour.server.play.room import Room
from parlour.server.play.table import Table
from parlour.server.play.turns import FORFEIT_TURNS

log = logging.getLogger("parlour.server")


class Forfeits:
    """The rated matches' leaves and forfeits. ``close`` closes a table with a note (the
    table's life: :class:`~parlour.server.play.life.TableLife`)."""

    def __init__(self, room: Room, close: Callable[[Table, str], Awaitable[None]]) -> None:
        self.room = room
        self.close = close

    async def left_rated(self, table: Table, seat: Seat) -> None:
        """The person at ``seat`` leaves a rated match before its end: if signed in, it
        counts as their loss now (and as a leave: see ratings.PLAYBAN)."""
        account = await asyncio.to_thread(seat_account, self.room.store.engine, table.id, seat)
        if account is None:
            return
        table.absent_accounts[seat] = account
        await self.room.write(op_left(table.id, table.match, table.game.id,
                                  [SeatKind(s.kind, s.bot) for s in table.seats], seat,
                                  account, self.room.settings.now()))
        log.info("table %s: seat %d left a rated match (counted as its loss)", table.id, seat)

    def watch(self, table: Table, seat: Seat) -> None:
        """At a rated match, a seat a stand-in plays (its person silent past the turn timer,
        or gone) forfeits the match if nobody is back at it within another turn's time
        (:data:`FORFEIT_TURNS` of them): the others need not play out a match against a
        bot, nor leave it and lose (docs/players.md)."""
        if not table.rated or table.status != "playing" or seat in table.forfeits \
                or table.turn_seconds <= 0:
            return
        match = table.match

        def due() -> None:
            table.forfeits.pop(seat, None)
            self.room.keep(self.forfeit(table, seat, match))  # held until done

        table.forfeits[seat] = self.room.turns.call_later(table.turn_seconds * FORFEIT_TURNS,
                                                           due)

    async def forfeit(self, table: Table, seat: Seat, match: int) -> None:
        """``seat`` was away from a rated match past the limit: its side loses it and the
        others win; the table closes (``forfeited``)."""
        async with table.lock:
            if table.status != "playing" or table.match != match \
                    or seat not in table.standins:
                return
            account = table.absent_accounts.get(seat, table.seats[seat].account_id)
            await self.room.write(op_forfeit(table.id, match, table.game.id,
                                         [SeatKind(s.kind, s.bot) for s in table.seats],
                                         seat, account, self.room.settings.now()))
        log.info("table %s: seat %d was away too long: the rated match is its loss",
                 table.id, seat)
        await self.close(table, "forfeited")
