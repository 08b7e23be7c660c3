"""A client at a table: what the owner of the table does with its messages (a
:class:`Seated`), for a client on this process (:class:`Session`, over its websocket) or
on another (:class:`parlour.server.cluster.relay.RemoteSession`); and the receive loop of a
client's socket (:func:`pass_on`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.engine import Seat
from parlour.i18n import localize
from parlour.server.edge.listener import SEND_NOW
from parlour.server.edge.protocol import (
    Act,
    Hello,
    HintAsk,
    Listen,
    Message,
    Ping,
    ProtocolError,
    RateLimit,
    React,
    Stale,
    Sync,
    Talk,
    encode,
    parse_message,
)
from parlour.server.people.accounts import muted_by
from parlour.server.play.table import Connection, Table
from parlour.server.play.tables import Hub
from parlour.server.play.talk import TalkLimit, clean_text, phrase_text, say, say_words, seal
from parlour.server.play.talk_words import fold

log = logging.getLogger("parlour.server")

MAX_REFUSED = 40  # messages refused for speed before the connection is closed


async def no_limit() -> None:
    """The hint limit of a client that has none."""


class Seated:
    """One client at one table as the table's owner sees it: its connection (views go out
    through it), and what it asks for. A :class:`Session` is a client on this process; a
    client of another process is a :class:`parlour.server.cluster.relay.RemoteSession`."""

    def __init__(self, hub: Hub, table: Table, conn: Connection,
                 hint_limit: Callable[[], Awaitable[None]] = no_limit) -> None:
        self.hub = hub
        self.table = table
        self.conn = conn
        self.hint_limit = hint_limit  # takes one of the client's hints (ClientGuard.take)
        self.asking: set[asyncio.Task[None]] = set()  # hints being worked out for it
        self.talk_limit = TalkLimit()  # a spectator's; a player's is its seat's (the table's)

    def enter(self) -> None:
        """The client is at the table: it gets the welcome and the current view."""
        table, conn = self.table, self.conn
        table.conns.add(conn)
        table.touched = self.hub.settings.monotonic()
        if conn.seat is not None:  # its person is back: a stand-in gives the seat up
            table.people_seen = table.touched
            self.hub.reclaim(table, conn.seat)
        conn.push(encode({"type": "welcome", "seat": conn.seat, "table": table.summary()}))
        table.send_view(conn)

    def leave(self) -> None:
        """The client has gone."""
        table, conn = self.table, self.conn
        for task in self.asking:
            task.cancel()
        table.conns.discard(conn)
        table.touched = table.watched = self.hub.settings.monotonic()
        if conn.seat is not None:
            table.people_seen = table.touched
        conn.stop()

    async def take(self, raw: str | bytes | None, at: float) -> None:
        """One message from the client (already let through the rate limit): acted on,
        or answered with the error."""
        try:
            msg = parse_message(raw)
            await self.handle(msg, at)
            if isinstance(msg, Act):
                self.hub.intent_done(asyncio.get_running_loop().time() - at)
        except Stale as err:
            self.conn.push(encode(err.to_json(self.conn.lang)))
            self.table.send_view(self.conn)
        except ProtocolError as err:
            self.conn.push(encode(err.to_json(self.conn.lang)))

    async def handle(self, msg: Message, at: float) -> None:
        """Act on one checked message that came in at loop time ``at``."""
        hub, table, conn = self.hub, self.table, self.conn
        if conn.seat is not None and not isinstance(msg, Ping):
            hub.reclaim(table, conn.seat)  # a person who speaks is not away
        if isinstance(msg, HintAsk):  # answered when ready; the connection carries on
            task = asyncio.create_task(self.give_hint(msg))
            self.asking.add(task)
            task.add_done_callback(self.asking.discard)
        elif isinstance(msg, React):
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators cannot take part: take a free "
                                                 "seat to play")
            await hub.react(table, conn.seat, msg.phase, at)
        elif isinstance(msg, Act):
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators cannot act: take a free seat "
                                                 "to play")
            if msg.seat is not None and msg.seat != conn.seat:
                raise ProtocolError("not_your_seat", "you hold seat {mine}, not seat {seat}: you "
                                                     "can act only for your own seat",
                                    mine=conn.seat, seat=msg.seat)
            action = hub.parse_intent(table, msg.action)
            await hub.submit(table, conn.seat, action, msg.version, person=True)
        elif isinstance(msg, Talk):
            if (msg.phrase is None) == (msg.text is None):
                raise ProtocolError("bad_message", "a talk message has a phrase or a text, "
                                                   "one of the two")
            if msg.phrase is not None:
                await self.talk(msg.phrase)
            else:
                await self.write(msg.text or "")
        elif isinstance(msg, Listen):
            conn.listens = msg.words
        elif isinstance(msg, Sync):
            conn.push(encode({"type": "table", "table": table.summary()}))
            table.send_view(conn)
        elif isinstance(msg, Ping):
            conn.push(encode({"type": "pong"}))
        elif isinstance(msg, Hello):
            raise ProtocolError("bad_message", "already said hello on this connection")

    async def talk(self, phrase: str) -> None:
        """Say a quick phrase (parlour/server/play/talk.py): within the speaker's limit, to
        the readers of its channel, each in their language, but those who muted the
        speaker with their account."""
        table, conn = self.table, self.conn
        phrase_text(phrase)
        limit = self.talk_limit if conn.seat is None else \
            table.talk_limits.setdefault(conn.seat, TalkLimit())
        limit.check(phrase, self.hub.settings.monotonic())
        conns = list(table.conns)
        deaf = await self.muting(conn.seat, {c.account for c in conns if c.seat != conn.seat})
        say([c for c in conns if c.account is None or c.account not in deaf], conn.seat, phrase)

    async def write(self, raw: str) -> None:
        """A player's own words (play/talk.py): a signed-in player's, at the seat they hold,
        who reads the players' words here; within the seat's limit; through the word
        filter; to those who read them, but those who muted the writer."""
        table, conn, hub = self.table, self.conn, self.hub
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators have the quick phrases: take a seat "
                                             "to write your own words")
        if conn.account is None:
            raise ProtocolError("talk_needs_account", "sign in to write your own words; "
                                                      "the quick phrases are for everyone")
        if not conn.listens:
            raise ProtocolError("talk_not_listening", "turn on the players' own words at "
                                                      "this table to write yours")
        text = clean_text(raw)
        limit = table.talk_limits.setdefault(conn.seat, TalkLimit())
        limit.check("text:" + fold(text), hub.settings.monotonic())
        shown = await asyncio.to_thread(hub.talk_words.mask, text)
        key = await asyncio.to_thread(hub.talk_key)
        conns = list(table.conns)
        deaf = await self.muting(conn.seat, {c.account for c in conns if c.seat != conn.seat})
        say_words([c for c in conns if c.account is None or c.account not in deaf], conn.seat,
                  shown, seal(key, table.id, conn.seat, shown))

    async def muting(self, seat: Seat | None, readers: set[int | None]) -> set[int]:
        """The signed-in ``readers`` who muted the person at ``seat`` (a spectator has no
        seat to mute). While the database does not answer, every signed-in reader is
        left out: a mute never fails open."""
        accounts = {r for r in readers if r is not None}
        if seat is None or not accounts:
            return set()
        holder = self.table.seats[seat].account_id
        try:
            return await asyncio.to_thread(muted_by, self.hub.store, self.table.id, seat,
                                           holder, accounts)
        except Exception:
            log.warning("table %s: the mutes could not be read; talk goes to guests only",
                        self.table.id)
            return accounts

    async def give_hint(self, msg: HintAsk) -> None:
        """Send the hint bot's advice for this client's seat once it is worked out."""
        table, conn = self.table, self.conn
        try:
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators get no hints: take a seat to "
                                                 "play")
            answer = await self.hub.hint(table, conn.seat, msg.version, self.hint_limit)
            conn.push(encode(localize(answer, conn.lang)))  # its words in the reader's language
        except Stale as err:
            conn.push(encode(err.to_json(conn.lang)))
            table.send_view(conn)
        except ProtocolError as err:
            conn.push(encode(err.to_json(conn.lang)))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a hint failed", table.id)
            conn.push(encode(ProtocolError("internal", "no hint could be worked out").to_json(
                conn.lang)))


class Session(Seated):
    """One client at one table this process owns, from its hello to its going."""

    def __init__(self, hub: Hub, table: Table, ws: WebSocket, seat: Seat | None,
                 lang: str = "en", hint_limit: Callable[[], Awaitable[None]] = no_limit,
                 account: int | None = None) -> None:
        super().__init__(hub, table, socket_connection(ws, seat, self._drop, lang),
                         hint_limit)
        self.conn.account = account
        self.ws = ws

    async def _drop(self) -> None:
        """Close a client that fell too far behind (it reconnects for the current view),
        or whose table moved to another process (:data:`RECONNECT`)."""
        await self.ws.close(code=self.conn.close_code or 4408)

    async def run(self) -> None:
        conn = self.conn
        pump = asyncio.create_task(conn.pump())
        self.enter()
        try:
            await pass_on(self.ws, conn, self.hub, self.take)
        finally:
            self.leave()
            try:
                await asyncio.wait_for(pump, 5)
            except (TimeoutError, Exception):
                pump.cancel()


def socket_connection(ws: WebSocket, seat: Seat | None,
                      close: Callable[[], Awaitable[None]], lang: str) -> Connection:
    """The connection of a client on this process's socket ``ws``: it writes at once when
    the server offers it (:data:`parlour.server.edge.listener.SEND_NOW`), else through the pump."""
    extensions = ws.scope.get("extensions") or {}
    return Connection(ws.send_text, seat, close, lang, extensions.get(SEND_NOW))


async def pass_on(ws: WebSocket, conn: Connection, hub: Hub,
                  take: Callable[[str | bytes | None, float], Awaitable[None]]) -> None:
    """The receive loop of a client's socket: each message within the rate limit goes to
    ``take`` (with the loop time it came in at: a react is timed to it), until the client
    goes or sends too fast for too long."""
    limiter = RateLimit(hub.settings.rate, hub.settings.burst, hub.settings.monotonic)
    loop = asyncio.get_running_loop()
    try:
        while not conn.closed:
            message = await ws.receive()
            at = loop.time()
            if message["type"] == "websocket.disconnect":
                break
            if not limiter.allow():
                conn.push(encode(ProtocolError(
                    "rate_limited", "too many messages: slow down").to_json(conn.lang)))
                if limiter.refused > MAX_REFUSED:
                    break
                continue
            await take(message.get("text", message.get("bytes")), at)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("connection to a table failed")
