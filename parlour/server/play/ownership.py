"""Which tables this process holds: those it loads from the database when asked for (a
restart, a table idle in memory no more, or one whose owner stopped), each replayed from
its rows. With several processes on one database, loading a table takes its lease first
(:mod:`parlour.server.cluster.lease`); one another process holds is :class:`Elsewhere`. A table
whose rows cannot be replayed is closed and answered as "could not be restored".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError

from parlour.games import game_ids, get_game
from parlour.server.cluster.lease import Elsewhere
from parlour.server.cluster.outages import DATABASE, unavailable
from parlour.server.edge.protocol import ProtocolError
from parlour.server.play.match import Play
from parlour.server.play.pace import DEFAULT_SPEED, SPEEDS
from parlour.server.play.room import Room
from parlour.server.play.table import TABLE_ID, MatchInfo, SeatInfo, Table
from parlour.server.play.turns import default_turn_seconds
from parlour.server.storage.store import Store, StoreError, TableRow

log = logging.getLogger("parlour.server")
T = TypeVar("T")

RESTORE_AT_MOST = 100_000  # tables nobody owns that a process starting takes at once


class Ownership:
    """Taking tables in: loading (and claiming) one, restoring all at start, quarantining
    the ones that cannot be replayed."""

    def __init__(self, room: Room, play: Play) -> None:
        self.room = room
        self.play = play
        self.unrestorable: dict[str, str] = {}  # table id -> what stopped its replay
        self._loading: dict[str, asyncio.Future[Table | None]] = {}

    def loading(self, table_id: str) -> bool:
        """Whether ``table_id`` is being loaded now (its lease taken, not yet in memory)."""
        return table_id in self._loading

    async def restore(self) -> int:
        """Load every unfinished table from the database and set its bots going; a table
        that cannot be replayed is closed (:meth:`_quarantine`) and the rest start."""
        if self.room.leases is None:
            ids = await asyncio.to_thread(self.room.store.unfinished_ids)
        else:  # with leases, those nobody holds (parlour.server.cluster.lease)
            ids = await asyncio.to_thread(self.room.leases.orphans, RESTORE_AT_MOST)
        restored = 0
        for table_id in ids:
            try:
                restored += await self.get(table_id) is not None
            except ProtocolError:
                continue  # quarantined and logged
        return restored

    async def _quarantine(self, row: TableRow, err: Exception) -> None:
        """Close a table whose rows cannot be replayed: logged, kept in the database as
        closed, answered as "could not be restored"."""
        reason = f"{type(err).__name__}: {err}"[:300]
        log.error("table %s could not be restored, closed: %s", row.id, reason)
        self.unrestorable[row.id] = reason
        if row.status in ("waiting", "playing"):
            try:
                await self.room.store.write(Store.op_close(row.id, "unrestorable",
                                                           self.room.settings.now()))
            except StoreError:
                log.error("table %s: could not be marked closed in the database", row.id)

    async def get(self, table_id: str) -> Table | None:
        """The table with this id, loaded from the database if it is not live.
        ``unrestorable`` for a table whose rows cannot be replayed (it is closed). With
        leases, loading it takes its lease first: :class:`Elsewhere` (with its rows) if
        another process holds it."""
        if not TABLE_ID.match(table_id):
            return None
        if table_id in self.unrestorable:
            raise ProtocolError("unrestorable", "this table is closed: it could not be "
                                                "restored")
        table = self.room.tables.get(table_id)
        if table is not None:
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            leases = self.room.leases
            if leases is not None and (
                    not self.room.taking or await self._read(leases.claim, table_id) is None):
                other = await self._read(self.room.store.load_table, table_id)
                if other is None:
                    fut.set_result(None)
                    return None
                raise Elsewhere(other)  # another process owns it
            row = await self._read(self.room.store.load_table, table_id)
            if row is None:
                fut.set_result(None)
                return None
            try:
                table = self._rebuild(row)
            except Exception as err:
                await self._quarantine(row, err)
                raise ProtocolError("unrestorable", "this table is closed: it could not be "
                                                    "restored") from None
            self.room.tables[table_id] = table
            self.room.clock.start(table)  # a timed phase reopens with a full window
            self.room.turns.restart(table)  # and a turn has a full turn's time again
            self.room.schedule_bots(table)
            await self.room.owning(table)
            if table.status == "waiting" and not table.free_seats():  # handed over undealt
                self.room.keep(self.play.start_or_retry(table))
            fut.set_result(table)
            return table
        except BaseException as err:
            fut.set_exception(err)  # any concurrent loads of this table raise it too;
            fut.exception()  # taken here, so a load nobody else awaited logs nothing more
            raise
        finally:
            del self._loading[table_id]

    async def _read(self, work: Callable[[str], T], table_id: str) -> T:
        """``work(table_id)`` on the database, in a thread: ``unavailable`` (503) while the
        database is out of reach (logged once per outage: :mod:`.outages`)."""
        try:
            done = await asyncio.to_thread(work, table_id)
        except DBAPIError as err:
            if not self.room.outages.note(err):
                raise
            raise unavailable(DATABASE) from None
        self.room.outages.answered(DATABASE)
        return done

    def _rebuild(self, row: TableRow) -> Table:
        """The table in memory, replayed from its rows; ValueError (or the engine's own
        error) for rows that do not make a playable table."""
        if row.problem is not None:
            raise ValueError(row.problem)
        if row.game not in game_ids():
            raise ValueError(f"unknown game {row.game!r}")
        game = get_game(row.game)
        if not isinstance(row.options, dict):
            raise ValueError("its options are not a JSON object")
        if len(row.seats) != row.num_seats or game.check_seats(row.num_seats) != row.num_seats:
            raise ValueError(f"{len(row.seats)} seat rows for {row.num_seats} seats")
        if row.status not in ("waiting", "playing", "finished", "closed"):
            raise ValueError(f"unknown status {row.status!r}")
        options = game.recorded_options(row.options)  # an option added since: its legacy
        seen = self.room.settings.monotonic()  # its last signs of life: now
        table = Table(row.id, game, row.num_seats, options, row.created,
                      [SeatInfo(s.kind, s.bot, s.name, s.token_hash, s.account_id, s.client)
                       for s in row.seats],
                      status=row.status, match=row.match, listed=row.listed,
                      compared=row.compared, rated=row.rated, daily=row.daily,
                      turn_seconds=default_turn_seconds(game.id) if row.turn_seconds is None
                      else row.turn_seconds,
                      creator=row.creator, note=row.note, key=self.room.store.rejoin_key,
                      speed=row.speed if row.speed in SPEEDS else DEFAULT_SPEED,
                      bot_pause=self.room.settings.bot_pause, hints=row.hints and not row.compared,
                      touched=seen, people_seen=seen, watched=seen,
                      move_seconds=row.move_seconds, deadline=row.deadline)
        table.matches = {m.match: MatchInfo(m.match, m.finished is not None, m.result, m.deal)
                         for m in row.matches.values()}
        current = row.matches.get(row.match)
        if current is None and (row.status == "playing" or row.match > 0):
            raise ValueError(f"match {row.match} has no row")
        if row.status == "playing" and current is not None and current.finished is not None:
            raise ValueError(f"match {row.match} is over but the table is playing")
        if current is not None:
            self.play.begin(table, current.seed)
            state = table.state
            assert state is not None
            for seat, text in current.actions:
                state.apply(state.parse_action(text), seat)
            table.version = len(current.actions)
            self.room.clock.sync(table)
        log.info("table %s restored: %s, match %d, %d actions", row.id, row.game, row.match,
                 table.version)
        return table
