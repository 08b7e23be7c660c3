"""The room's one connection per page (issue 34, item 2): what reaches a signed-in person
on any page of the parlour, through one server-sent-event stream
(``GET /api/people/events``; :mod:`parlour.server.routers.people`).

Each stream holds an account's :class:`Stream` here. What it sends:

- ``room``: the person's friends (online, at which tables), the players they follow, their
  challenges (:func:`parlour.server.people.social.room_of`,
  :func:`parlour.server.people.challenges.challenges_of`), worked out from the database
  whenever something may have changed it, and sent when it did;
- ``turn``: it has just become their turn at a table and no page of theirs is at their
  seat there (the owner of the table says so, :data:`TURN_GRACE` seconds after:
  :meth:`RoomBus.turns`);
- ``rematch``: someone at a table they played at deals again (the same seats).

The two events are pushed, not worked out: while Redis does not take one for the other
processes, it is kept as a row of ``parlour_notices`` (migration 0017) for
:data:`NOTICE_SECONDS`, and the ``room`` holds the account's rows (``notices``), so that a
page polling on another process shows it as the stream would have (the page shows each
once).

How the streams learn that something changed: :meth:`RoomBus.notify` nudges the streams of
the accounts concerned on this process at once, and publishes the nudge on Redis
(``<prefix>people``, read by :class:`parlour.server.cluster.relay.Relay`) for the other
processes. While no Redis answers (or a process with several others has none), the
streams fall back to polling: each works its ``room`` out again every
:data:`POLL_SECONDS`; with nudges that cross every process, only every
:data:`QUIET_SECONDS` (what ages by itself: a friend whose page closed on a process that
died), and when a challenge in it expires. Nothing secret travels: account ids and table ids, never
a token or a name typed.

Presence: while an account has a stream open here, its ``parlour_presence`` row for this
process is renewed every :data:`BEAT_SECONDS`; a row counts for
:data:`~parlour.server.people.social.PRESENCE_TTL` (so a process that dies stops showing
its people within a minute), and is deleted when the account's last stream here closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, update

from parlour.engine import JsonDict
from parlour.server.people import challenges, social
from parlour.server.storage.store import Store, presence_t

if TYPE_CHECKING:  # the tables import this module (the hub's bus)
    from parlour.server.play.table import Table

log = logging.getLogger("parlour.server")

POLL_SECONDS = 5.0  # how often a stream looks again while nudges may not reach it
NOTICE_SECONDS = 600.0  # how long an event Redis did not take is kept for the room's polls
QUIET_SECONDS = 60.0  # and while they do (presence lapses in as long)
TURN_GRACE = 5.0  # seconds before "your turn" is told: a person at the table hears nothing
BEAT_SECONDS = 20.0  # how often this process renews the presence of its streams' people
KEEPALIVE_SECONDS = 15.0  # a comment line on an idle stream (proxies close silent ones)
STREAMS_PER_ACCOUNT = 8  # room streams one account may hold open on one process
QUEUE_MOST = 20  # events waiting for one stream; a stream that lags past it is closed

Publish = Callable[[JsonDict], Awaitable[bool]]


class Stream:
    """One page's connection of the room: nudged when its person's room may have changed,
    fed the events meant for them."""

    def __init__(self, account_id: int) -> None:
        self.account_id = account_id
        self.wake = asyncio.Event()
        self.events: list[JsonDict] = []
        self.lagging = False

    def nudge(self) -> None:
        self.wake.set()

    def push(self, event: JsonDict) -> None:
        if len(self.events) >= QUEUE_MOST:
            self.lagging = True
        else:
            self.events.append(event)
        self.wake.set()


class RoomBus:
    """This process's room streams, and the nudges between processes."""

    def __init__(self, store: Store, now: Callable[[], float], process: str = "local"
                 ) -> None:
        self.store = store
        self.now = now
        self.process = process[:64]
        self.streams: dict[int, set[Stream]] = {}
        # the relay's publish, with Redis: True once Redis took it; and whether nudges
        # reach every process now (no relay: this process is the only one)
        self.publish: Publish | None = None
        self.reaching: Callable[[], bool] = lambda: True
        self.turn_grace = TURN_GRACE
        self._beat: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ streams
    def poll_seconds(self) -> float:
        return QUIET_SECONDS if self.reaching() else POLL_SECONDS

    def open(self, account_id: int) -> Stream:
        """A new stream for ``account_id`` (``too_many``-refused by the caller first)."""
        stream = Stream(account_id)
        mine = self.streams.setdefault(account_id, set())
        first = not mine
        mine.add(stream)
        if first:
            self._spawn(self._arrived(account_id))
        if self._beat is None or self._beat.done():
            self._beat = asyncio.get_running_loop().create_task(self._renew())
        return stream

    def count(self, account_id: int) -> int:
        return len(self.streams.get(account_id, ()))

    def close(self, stream: Stream) -> None:
        mine = self.streams.get(stream.account_id)
        if mine is None:
            return
        mine.discard(stream)
        if not mine:
            del self.streams[stream.account_id]
            self._spawn(self._left(stream.account_id))

    async def stop(self) -> None:
        """The process stops: its tasks end, and its people are no longer shown online
        through it (their pages connect again elsewhere and are shown from there)."""
        for task in [self._beat, *self._background]:
            if task is not None:
                task.cancel()
        if self.streams:
            try:
                await asyncio.to_thread(self._forget_all)
            except Exception:  # the database is away: the rows lapse within PRESENCE_TTL
                log.warning("the room's presence could not be cleared", exc_info=True)
        self.streams.clear()

    def _forget_all(self) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(delete(presence_t).where(presence_t.c.process == self.process,
                                                  presence_t.c.account_id.in_(
                                                      sorted(self.streams))))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def guarded() -> None:
            try:
                await work
            except Exception as err:
                self._failed(err)

        task = asyncio.get_running_loop().create_task(guarded())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _failed(self, err: BaseException) -> None:
        """A write of presence failed: an outage of the database is counted (logged once
        by :class:`~parlour.server.cluster.outages.Outages`; the next beat or look catches
        up); anything else is logged with its traceback."""
        if not self.store.outages.note(err):
            log.error("the room's presence could not be written", exc_info=err)

    # ------------------------------------------------------------------ presence
    def mark_seen(self, ids: list[int]) -> None:
        """Renew (or make) this process's presence rows of ``ids`` (blocks: a thread)."""
        now = self.now()
        with self.store.engine.begin() as conn:
            for account_id in ids:
                renewed = conn.execute(update(presence_t).where(
                    presence_t.c.account_id == account_id,
                    presence_t.c.process == self.process).values(seen=now))
                if renewed.rowcount == 0:
                    conn.execute(insert(presence_t).values(account_id=account_id,
                                                           process=self.process, seen=now))

    def watch(self, account_id: int, table_id: str | None) -> None:
        """A page of ``account_id``'s on this process watches ``table_id`` (None: no longer):
        its friends see it at that table (blocks: a thread)."""
        with self.store.engine.begin() as conn:
            kept = conn.execute(update(presence_t).where(
                presence_t.c.account_id == account_id,
                presence_t.c.process == self.process).values(watching=table_id))
            if kept.rowcount == 0 and table_id is not None:
                conn.execute(insert(presence_t).values(account_id=account_id,
                                                       process=self.process,
                                                       seen=self.now(), watching=table_id))

    def stopped_watching(self, account_id: int) -> None:
        """A spectator's socket closed: :meth:`watching` it no more, in a task of its own (the
        socket's own task may be cancelled as it closes, and could not finish the note)."""
        self._spawn(self.watching(account_id, None))

    async def watching(self, account_id: int, table_id: str | None) -> None:
        """:meth:`watch`, then the friends' rooms are nudged."""
        try:
            await asyncio.to_thread(self.watch, account_id, table_id)
            followers = await asyncio.to_thread(self._followers, account_id)
        except Exception as err:  # the database is away: the friends see it next time
            log.warning("who watches a table could not be noted: %s", err)
            return
        await self.notify(followers)

    def _unmark(self, account_id: int) -> list[int]:
        with self.store.engine.begin() as conn:
            conn.execute(delete(presence_t).where(presence_t.c.account_id == account_id,
                                                  presence_t.c.process == self.process))
            return social.followers_of(conn, account_id)

    async def _arrived(self, account_id: int) -> None:
        await asyncio.to_thread(self.mark_seen, [account_id])
        await self.notify(await asyncio.to_thread(self._followers, account_id))

    async def _left(self, account_id: int) -> None:
        if account_id in self.streams:  # a page came back meanwhile
            return
        await self.notify(await asyncio.to_thread(self._unmark, account_id))

    def _followers(self, account_id: int) -> list[int]:
        with self.store.engine.connect() as conn:
            return social.followers_of(conn, account_id)

    async def _renew(self) -> None:
        while self.streams:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                await asyncio.to_thread(self.mark_seen, sorted(self.streams))
            except Exception as err:
                self._failed(err)

    # ------------------------------------------------------------------ nudges and events
    async def notify(self, accounts: Iterable[int], event: JsonDict | None = None) -> None:
        """Tell ``accounts`` that their room may have changed (and ``event``, if any): on
        this process at once, on the others through Redis."""
        ids = sorted(set(accounts))
        if not ids:
            return
        self.deliver({"to": ids, "event": event})
        if self.publish is not None and not await self.publish(
                {"to": ids, "event": event, "from": self.process}) and event is not None:
            # Redis did not take it: the other processes' pages poll it from the rows
            await asyncio.to_thread(self.store.keep_notices, ids, event, self.now(),
                                    NOTICE_SECONDS)

    def deliver(self, data: JsonDict) -> None:
        """A nudge (from this process or another): each stream of its accounts here looks
        again, and gets its event."""
        ids, event = data.get("to"), data.get("event")
        if not isinstance(ids, list):
            return
        for account_id in ids:
            for stream in self.streams.get(account_id, ()) if isinstance(account_id, int) \
                    else ():
                if isinstance(event, dict):
                    stream.push(event)
                else:
                    stream.nudge()

    def nudge_all(self) -> None:
        """Every stream here looks again (nudges may have been lost: Redis came back)."""
        for mine in self.streams.values():
            for stream in mine:
                stream.nudge()

    def turns(self, table: Table) -> None:
        """The owner of ``table`` just moved it on: each signed-in person whose turn it has
        just become (not theirs the last time it asked) is told so, after
        :attr:`turn_grace` seconds, if it is still their turn and no page of theirs is
        connected to their seat by then (a person at the table hears nothing)."""
        now = {account: seat for seat, account in self._to_act(table)}
        new = set(now) - table.turn_told
        table.turn_told = set(now)
        if new:
            asyncio.get_running_loop().call_later(self.turn_grace, self.tell_turn, table,
                                                  {a: now[a] for a in new}, table.match)

    @staticmethod
    def _to_act(table: Table) -> list[tuple[int, int]]:
        """The person seats to act at ``table`` now held by an account (not stood in
        for), with the account."""
        state = table.state
        if state is None or table.status != "playing":
            return []
        return [(seat, info.account_id) for seat in state.to_act
                if (info := table.seats[seat]).kind == "person"
                and info.account_id is not None and seat not in table.standins]

    def tell_turn(self, table: Table, told: dict[int, int], match: int) -> None:
        """After the grace: tell each of ``told`` (account: seat) whose turn it still is in
        ``match``, and who has no connection open at that seat."""
        if table.match != match:
            return
        acting = set(self._to_act(table))
        away = [a for a, seat in told.items()
                if (seat, a) in acting and not table.connected(seat)]
        if away:
            self._spawn(self.notify(away, {"type": "turn", "table": table.id,
                                           "game": table.game.id}))

    def rematch(self, table: Table, by: int | None) -> None:
        """Someone at ``table`` (``by``: their account, if signed in) dealt again: the other
        signed-in people seated there are told, wherever they are."""
        others = {s.account_id for s in table.seats
                  if s.kind == "person" and s.account_id is not None} - {by}
        if others:
            self._spawn(self.notify(others, {"type": "rematch", "table": table.id,
                                             "game": table.game.id}))

    # ------------------------------------------------------------------ the room
    def room(self, account_id: int) -> JsonDict:
        """What the account's ``room`` message holds now (blocks: run it in a thread)."""
        now = self.now()
        with self.store.engine.connect() as conn:
            room = {"type": "room", **social.room_of(conn, account_id, now),
                    "challenges": challenges.challenges_of(conn, account_id, now)}
        # the correspondence tables awaiting the account's move: rows, so that a page
        # polling while Redis is away sees them as the stream does
        room["awaiting"] = self.store.awaiting(account_id, [])
        room["notices"] = self.store.notices(account_id, self.now() - NOTICE_SECONDS)
        return room
