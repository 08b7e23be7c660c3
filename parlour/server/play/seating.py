"""A table's seats: who sits, who leaves, who frees a seat for someone else, and the
stand-in bots that play a seat while its person is away (:mod:`parlour.server.play.turns`)."""

from __future__ import annotations

import logging

from parlour.bots import make_bot
from parlour.engine import Seat, derive_seed
from parlour.message import Many
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.account_names import without_ignorables
from parlour.server.play.correspondence import awaiting
from parlour.server.play.forfeits import Forfeits
from parlour.server.play.match import Play
from parlour.server.play.room import Room
from parlour.server.play.table import Table, new_token, token_hash
from parlour.server.play.turns import STAND_IN, awaited
from parlour.server.storage.store import Store, both

log = logging.getLogger("parlour.server")

NAME_MAX = 24


def clean_name(name: object) -> str:
    """A display name: printable, trimmed, 1 to 24 characters; characters that show as
    nothing (Unicode's default-ignorable ones, as for account names) are left out."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", "a name is text")
    text = " ".join(without_ignorables("".join(ch for ch in name if ch.isprintable())).split())
    if not text:
        raise ProtocolError("bad_name", "choose a name to sit at the table")
    if len(text) > NAME_MAX:
        raise ProtocolError("bad_name", "a name has at most {n} characters", n=NAME_MAX)
    return text



class Seating:
    """Taking, leaving and freeing seats; stand-ins for the people away."""

    def __init__(self, room: Room, play: Play, forfeits: Forfeits) -> None:
        self.room = room
        self.play = play
        self.forfeits = forfeits

    async def join(self, table: Table, name: str, seat: Seat | None,
                   digest: str | None = None, account_id: int | None = None,
                   client: str | None = None) -> tuple[Seat, str]:
        """Sit a person (signed in as ``account_id``, or a guest) at a free seat; returns the
        seat and its token. A seat freed during play (its person left) is taken over from the
        stand-in bot playing it. A process that forwards the join
        (:mod:`parlour.server.cluster.relay`) makes the token itself and sends its ``digest`` only:
        then the token returned is empty."""
        clean = clean_name(name)
        async with table.lock:
            free = table.free_seats()
            if table.status == "closed":
                raise ProtocolError("closed", "this table is closed")
            if not free:
                raise ProtocolError("table_full", "every seat at this table is taken: you can "
                                                  "watch")
            if seat is None:
                seat = free[0]
            if seat not in free:
                raise ProtocolError("seat_taken", "seat {seat} is not free (free: {free})",
                                    seat=seat, free=Many(tuple(free)))
            token = new_token() if digest is None else ""
            digest = digest or token_hash(token)
            take = Store.op_take_seat(table.id, seat, clean, digest, account_id, client)
            if table.move_seconds is not None and table.status == "playing" \
                    and table.state is not None and seat in table.state.to_act:
                # a correspondence move awaited again: the seat's new person has its time
                await_again = [*awaited(table), seat]
                take = both(take, awaiting(table, sorted(await_again),
                                           self.room.settings.now()))
            await self.room.write(take, table)
            table.seats[seat].name = clean
            table.seats[seat].token_hash = digest
            table.seats[seat].account_id = account_id
            table.seats[seat].client = client
            if table.move_seconds is not None:
                self.room.turns.restart(table)
        table.broadcast_table()
        self.reclaim(table, seat)  # a seat freed during play: the stand-in gives it up
        if table.status == "waiting" and not table.free_seats():
            await self.play.start_or_retry(table)
        return seat, token

    async def leave(self, table: Table, seat: Seat | None) -> None:
        """The person at ``seat`` leaves it: the seat is free for someone else, and while a
        match is on a stand-in bot plays it."""
        if seat is None:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        await self.free(table, seat)

    async def free_seat(self, table: Table, seat: Seat | None, other: object) -> None:
        """The table's creator (at ``seat``) frees seat ``other``, held by someone who has
        gone: nobody is connected at it, and the table waits for it or a stand-in plays it."""
        if seat is None or seat != table.creator:
            raise ProtocolError("not_creator", "only the person who opened the table can "
                                               "free a seat")
        if not isinstance(other, int) or isinstance(other, bool) \
                or not 0 <= other < table.num_seats:
            raise ProtocolError("bad_seat", "seats are 0 to {last}", last=table.num_seats - 1)
        info = table.seats[other]
        if info.kind != "person" or info.token_hash is None or other == seat:
            raise ProtocolError("bad_seat", "that seat is not held by another person")
        if table.connected(other) or (table.status == "playing"
                                      and other not in table.standins):
            raise ProtocolError("still_there", "that player is still at the table")
        await self.free(table, other)

    async def free(self, table: Table, seat: Seat) -> None:
        """Free ``seat`` for someone else: its person left, or was let go (a creator's
        choice, a correspondence move overdue). While a match is on a stand-in bot plays
        it, but at a correspondence table, which waits for a person to take it."""
        async with table.lock:
            if not table.is_open and table.status != "finished":
                raise ProtocolError("not_playing", "this table is closed")
            if table.rated and table.status == "playing":
                await self.forfeits.left_rated(table, seat)
            free = Store.op_free_seat(table.id, seat)
            if table.move_seconds is not None:
                free = both(free, awaiting(table, [s for s in awaited(table) if s != seat],
                                           self.room.settings.now()))
            await self.room.write(free, table)
            table.seats[seat].name = table.seats[seat].token_hash = None
            table.seats[seat].account_id = None
            for conn in list(table.conns):
                if conn.seat == seat:
                    conn.seat = None  # whoever left may stay and watch
            if table.status == "playing" and table.move_seconds is None:
                self._stand_in(table, seat)
                self.forfeits.watch(table, seat)
            elif table.move_seconds is not None:
                self.room.turns.restart(table)
            log.info("table %s: seat %d is free", table.id, seat)
        table.broadcast_table()
        table.broadcast_views()
        self.room.schedule_bots(table)

    async def link_seat(self, table: Table, seat: Seat, account_id: int | None) -> None:
        """The signed-in person ``account_id`` holds ``seat`` (None: a guest does; statistics
        and ratings follow it)."""
        await self.room.write(Store.op_link_seat(table.id, seat, account_id), table)
        table.seats[seat].account_id = account_id

    def stand_in(self, table: Table, seat: Seat) -> None:
        """The turn timer of ``seat`` ran out: a bot plays it until its person is back."""
        if table.status != "playing" or seat in table.standins:
            return
        self._stand_in(table, seat)
        log.info("table %s: a %s bot stands in for seat %d", table.id, STAND_IN, seat)
        self.forfeits.watch(table, seat)
        self.room.turns.restart(table)
        table.refresh_views()
        table.broadcast_table()
        table.broadcast_views()
        self.room.schedule_bots(table)

    def _stand_in(self, table: Table, seat: Seat) -> None:
        table.standins.add(seat)
        table.bots[seat] = make_bot(table.game, STAND_IN, seat,
                                    derive_seed(table.seed, "stand-in", table.version, seat))

    def reclaim(self, table: Table, seat: Seat) -> None:
        """The person at ``seat`` is back (connected, or spoke): they play it again."""
        if seat not in table.standins or table.seats[seat].token_hash is None:
            return
        table.standins.discard(seat)
        table.bots.pop(seat, None)  # its bot task sees it and stops before moving
        timer = table.forfeits.pop(seat, None)
        if timer is not None:
            timer.cancel()
        log.info("table %s: seat %d is back", table.id, seat)
        self.room.turns.restart(table)
        table.refresh_views()
        table.broadcast_table()
        table.broadcast_views()
