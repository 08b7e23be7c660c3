"""Any process serves any table: clients of a table owned elsewhere are relayed over Redis.

Each table is owned by one process (:mod:`parlour.server.cluster.lease`). A websocket or an HTTP
request for it may land on any process: one that does not own it forwards it to the
owner over Redis pub/sub, and relays back what the owner sends.

Channels (``<prefix>`` is ``parlour:`` unless set):

* ``<prefix>t:<table>``, the table's inbox, read by its owner: a client's arrival and
  "still here" (``seat``, with its client hash, under which the owner limits its hints),
  its messages (``msg``, the client's text as it sent it), its going (``bye``), and calls
  for the HTTP requests that change a table (``call``: join, again, leave, free,
  summary).
* ``<prefix>p:<process>``, each process's inbox: messages for one of its clients (``cid``,
  with the text the owner built for it, or the close code), and answers to its calls.

The owner keeps a :class:`RemoteSession` per relayed client, a connection like a local
one: views are still built per seat by the owner, and the relaying process only copies
text. What crosses Redis is what the database holds already (seat views follow from the
seed and the log, which are there): never a seat token (a join sends its hash; the token
is made and kept by the process the client talks to). Nothing on Redis is needed to
recover state: pub/sub keeps nothing, the database is the truth.

When an owner dies, its clients' processes keep announcing them (``seat``, every
:data:`REFRESH` seconds); the process that takes the table over (by replay) greets each
with a welcome and the current view, so they carry on after a short pause. A message sent
while nobody owns the table reaches nobody (``PUBLISH`` says so): the client is told to try
again in a moment. The owner forgets a relayed client it has not heard of for
:data:`STALE` seconds (its process died; its person reconnects elsewhere).

The lobby list is shared the same way: each owner writes its listed open tables'
summaries to a Redis hash every :data:`REFRESH` seconds, and any process reads them all.
The per-client limits every process counts live here too (:mod:`.shared_limits`: made on
the relay's connection, this process's sockets renewed at each refresh).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import time
from collections.abc import Coroutine
from typing import Any, NamedTuple

import redis.asyncio as aioredis
from fastapi import WebSocket
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import ConstantBackoff, NoBackoff
from redis.exceptions import RedisError

from parlour.engine import JsonDict, Seat
from parlour.games import game_ids, get_game
from parlour.i18n import LANGUAGES
from parlour.message import N_, Code, Message, message_from_json, message_to_json
from parlour.server.cluster.outages import REDIS, TRY_LATER, unavailable
from parlour.server.cluster.shared_limits import SharedLimits
from parlour.server.edge.limits import HASHED, ClientGuard, ClientKey, client_hash
from parlour.server.edge.protocol import ProtocolError, encode
from parlour.server.play.sessions import Seated, no_limit, pass_on, socket_connection
from parlour.server.play.table import Connection, MatchInfo, SeatInfo, Table
from parlour.server.play.tables import Hub
from parlour.server.storage.store import TableRow

log = logging.getLogger("parlour.server")

REFRESH = 2.0  # seconds between a relaying process's "still here" for each of its clients
STALE = 8.0  # seconds an owner keeps a relayed client it has not heard of
CALL_TIMEOUT = 5.0  # seconds a forwarded HTTP request waits for the owner's answer
CLOSE_WAIT = 2.0  # seconds closing a connection to Redis may take when the process stops
CONNECT_WAIT = 2.0  # seconds a new connection to Redis may take to open
RECONNECT_EVERY = 0.5  # seconds between tries to reach Redis again after losing it
SUBSCRIBE_WAIT = 1.0  # seconds taking a table waits for Redis to confirm its channel
LOBBY_FRESH = 3 * REFRESH  # seconds a table's lobby entry lasts without being written again
LOBBY_KEPT = 60  # seconds the lobby's keys outlive the last process that wrote them
UNRESTORABLE = 4410  # the close code of a table that could not be restored (closed)
MOVING = "the table is moving to another server: try again in a moment"

class Mirror(Table):
    """A table owned by another process, as this one read it from the database: enough to
    check a seat token, make a rejoin link and serve finished matches' records; anything
    else about it is asked of its owner."""


def mirror(hub: Hub, row: TableRow) -> Mirror:
    if row.game not in game_ids():
        raise ProtocolError("unrestorable", "this table is closed: it could not be restored")
    game = get_game(row.game)
    table = Mirror(row.id, game, row.num_seats, row.options if isinstance(row.options, dict)
                   else {}, row.created,
                   [SeatInfo(s.kind, s.bot, s.name, s.token_hash) for s in row.seats],
                   status=row.status, match=row.match, listed=row.listed,
                   compared=row.compared, turn_seconds=row.turn_seconds or 0,
                   creator=row.creator, note=row.note, key=hub.store.rejoin_key)
    table.matches = {m.match: MatchInfo(m.match, m.finished is not None, m.result, m.deal)
                     for m in row.matches.values()}
    return table


class Relayed(NamedTuple):
    """A client of this process at a table another process owns."""

    conn: Connection
    table_id: str
    seat: Seat | None
    digest: str | None  # its seat token's hash
    client: str  # its client hash (parlour.server.edge.limits.client_hash): its hint limit


class RemoteSession(Seated):
    """A client of another process, at a table this process owns (its hints are limited
    per client by its ``client`` hash, in this process and in Redis)."""

    def __init__(self, relay: Relay, table: Table, cid: str, process: str,
                 seat: Seat | None, lang: str = "en", client: str | None = None) -> None:
        hint_limit = no_limit if client is None else \
            functools.partial(relay.guard.take, "hint", HASHED + client)
        super().__init__(relay.hub, table, Connection(self._send, seat, self._close, lang),
                         hint_limit)
        self.relay = relay
        self.cid = cid
        self.channel = relay.process_channel(process)
        self.seen = time.monotonic()
        self.inbox: asyncio.Queue[tuple[str, float] | None] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []

    async def _send(self, text: str) -> None:
        await self.relay.publish(self.channel, {"cid": self.cid, "text": text})

    async def _close(self) -> None:
        await self.relay.publish(self.channel, {"cid": self.cid,
                                                "close": self.conn.close_code or 4408})

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self.conn.pump()), asyncio.create_task(self._work())]
        self.enter()

    async def _work(self) -> None:
        """The client's messages, one at a time and in order, as a local session takes
        them."""
        while True:
            item = await self.inbox.get()
            if item is None:
                return
            try:
                await self.take(*item)
            except Exception:
                log.exception("table %s: a relayed message failed", self.table.id)

    def stop(self) -> None:
        """Forget the client (it went, its process went quiet, or the table moved): no
        close is sent, so its process can hand it to the table's next owner."""
        self.leave()
        self.inbox.put_nowait(None)


class Relay:
    """This process's link to the others, over Redis."""

    def __init__(self, hub: Hub, guard: ClientGuard, url: str, process: str,
                 prefix: str = "parlour:") -> None:
        self.hub = hub
        self.guard = guard
        self.me = process
        self.prefix = prefix
        self.redis = aioredis.Redis.from_url(url, decode_responses=True,
                                             client_name=f"parlour-{process}",
                                             socket_connect_timeout=CONNECT_WAIT,
                                             # one quick retry (a pooled connection that
                                             # Redis closed), not redis-py's seconds of
                                             # backoff: the relay's own loops try again
                                             retry=Retry(ConstantBackoff(0.05), 1))
        # The reader's own: redis-py would reconnect a pub/sub connection by itself and
        # hide that messages may have been lost meanwhile; this one lets the relay know.
        self._reader = aioredis.Redis.from_url(url, decode_responses=True,
                                               client_name=f"parlour-{process}",
                                               socket_connect_timeout=CONNECT_WAIT,
                                               retry=Retry(NoBackoff(), 0))
        self.outages = hub.outages
        self.limits = guard.shared = SharedLimits(self.redis, prefix, process, self.outages)
        self.inbox = self.process_channel(process)
        self.owners = f"{prefix}owners"  # every process: "table X has a new owner"
        self.people = f"{prefix}people"  # every process: "these people's room changed"
        self.channels: set[str] = {self.inbox, self.owners, self.people}
        self._changes: asyncio.Queue[tuple[bool, str]] = asyncio.Queue()
        self._confirming: dict[str, list[asyncio.Future[None]]] = {}  # until subscribed
        self.clients: dict[str, Relayed] = {}
        self.remotes: dict[str, RemoteSession] = {}
        self.calls: dict[int, asyncio.Future[JsonDict]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._adopting: set[str] = set()
        self._background: set[asyncio.Task[None]] = set()  # kept until done
        self.relayed = 0  # messages forwarded to owners (a metric)
        hub.on_own.append(self._owned)
        hub.on_lose.append(self._lost)
        hub.people.process = process
        hub.people.publish = self._publish_people
        hub.people.reaching = lambda: not self.outages.down(REDIS)

    # ------------------------------------------------------------------ channels
    def table_channel(self, table_id: str) -> str:
        return f"{self.prefix}t:{table_id}"

    def process_channel(self, process: str) -> str:
        return f"{self.prefix}p:{process}"

    async def publish(self, channel: str, data: JsonDict) -> int:
        """Send ``data`` on ``channel``; the number of processes that got it (0 if Redis
        is unreachable)."""
        try:
            sent = int(await self.redis.publish(channel, json.dumps(data)))
        except RedisError as err:
            self.outages.failed(REDIS, err)  # logged once per outage, not once per message
            return 0
        self.outages.answered(REDIS)
        return sent

    async def _publish_people(self, data: JsonDict) -> bool:
        """A room nudge for the other processes (:mod:`parlour.server.people.presence`);
        whether Redis took it (if not, their streams poll until it is back)."""
        return await self.publish(self.people, data) > 0

    async def ping(self, within: float) -> bool:
        """Whether Redis answers within ``within`` seconds (for ``/health``)."""
        try:
            async with asyncio.timeout(within):
                await self.redis.ping()
        except (RedisError, OSError, TimeoutError) as err:
            self.outages.failed(REDIS, err if str(err) else "no answer in time")
            return False
        self.outages.answered(REDIS)
        return True

    async def start(self) -> None:
        await self.redis.ping()
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._refresh())]

    async def close(self) -> None:
        for task in [*self._tasks, *self._background]:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=CLOSE_WAIT)
        for remote in list(self.remotes.values()):
            remote.stop()
        try:  # closing a socket waits for Redis to see it closed: not for ever
            async with asyncio.timeout(CLOSE_WAIT):
                await self.redis.aclose()
                await self._reader.aclose()
        except TimeoutError:
            log.warning("redis did not see this process's connections close")

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(self._guarded(work))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _guarded(self, work: Coroutine[Any, Any, None]) -> None:
        """Run a piece of background work: an outage of Redis is counted (logged once),
        anything else logged with its traceback, nothing left for the loop to report as
        never retrieved."""
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception as err:
            if not self._outage(err):
                log.exception("the relay's background work failed")

    def _outage(self, err: BaseException) -> bool:
        """Count ``err`` if it says Redis is out of reach."""
        if isinstance(err, (RedisError, OSError)):
            self.outages.failed(REDIS, err)
            return True
        return False

    async def _owned(self, table: Table) -> None:
        """Listen to the table's channel; returns once Redis has confirmed it (or after
        :data:`SUBSCRIBE_WAIT`), so that whatever is published there from then on is read."""
        channel = self.table_channel(table.id)
        heard = asyncio.get_running_loop().create_future()
        self._confirming.setdefault(channel, []).append(heard)
        self._changes.put_nowait((True, channel))
        try:
            async with asyncio.timeout(SUBSCRIBE_WAIT):
                await heard
        except TimeoutError:
            log.warning("table %s: redis did not confirm its channel in time", table.id)
        # the processes relaying its clients greet the new owner now, not at their refresh
        await self.publish(self.owners, {"table": table.id, "by": self.me})
        self._spawn(self.list_tables())

    def _lost(self, table: Table) -> None:
        self._changes.put_nowait((False, self.table_channel(table.id)))
        for cid, remote in list(self.remotes.items()):
            if remote.table is table:
                del self.remotes[cid]
                remote.stop()  # quietly: its process hands it to the next owner
        self._spawn(self._unlist([table.id]))

    def _confirmed(self, channel: str) -> None:
        for heard in self._confirming.pop(channel, []):
            if not heard.done():
                heard.set_result(None)

    # ------------------------------------------------------------------ reading
    async def _read(self) -> None:
        """Read every channel this process listens to, and (un)subscribe as tables come
        and go, over one pub/sub connection: one task blocks on reading it (no polling: an
        idle process sleeps), another sends the (un)subscriptions as they are asked for.
        Reconnects after Redis comes back."""
        first, listening = True, False
        while True:
            pubsub = self._reader.pubsub()
            try:
                await pubsub.subscribe(*self.channels)
                listening = True
                self.outages.answered(REDIS)
                if not first:  # messages may have been lost: every client catches up
                    self._spawn(self.refresh(sync=True))
                    self.hub.people.nudge_all()
                first = False
                tasks = [asyncio.create_task(self._listen(pubsub)),
                         asyncio.create_task(self._follow(pubsub))]
                try:
                    done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
                for task in done:
                    task.result()  # its error: reconnect
            except asyncio.CancelledError:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(CLOSE_WAIT):
                        await pubsub.aclose()
                raise
            except Exception as err:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()
                if listening and isinstance(err, (RedisError, OSError)):
                    listening = False  # its connection went: at once, a new one
                    continue
                if not self._outage(err):  # logged once; reconnecting until it is back
                    log.exception("the relay's reader failed: reconnecting")
                self._cut_off()  # out of reach, not just a connection lost
                await asyncio.sleep(RECONNECT_EVERY)

    def _cut_off(self) -> None:
        """Redis is out of reach: nothing crosses between the processes. Each relayed
        client here is told why and closed (1013: its page reconnects, to a process that
        can serve its table, or here once Redis is back); at the tables owned here, the
        seat of each relayed client is stood in for, as if its time had run out, so that
        the players here play on (the person takes it back on reconnecting)."""
        for one in list(self.clients.values()):
            one.conn.push(encode(unavailable(REDIS).to_json(one.conn.lang)))
            one.conn.kick(TRY_LATER)
        for cid, remote in list(self.remotes.items()):
            del self.remotes[cid]
            remote.stop()
            seat, table = remote.conn.seat, remote.table
            if seat is not None and self.hub.tables.get(table.id) is table \
                    and not any(c.seat == seat for c in table.conns):
                self.hub.stand_in(table, seat)

    async def _listen(self, pubsub: PubSub) -> None:
        """Wait for each message (blocking, no timeout) and act on it."""
        while True:
            message = await pubsub.get_message(timeout=None)
            if message is None:
                continue
            kind, channel = message.get("type"), str(message.get("channel"))
            if kind == "message":
                self._dispatch(channel, str(message["data"]))
            elif kind == "subscribe":
                self._confirmed(channel)

    async def _follow(self, pubsub: PubSub) -> None:
        """Send each (un)subscription as it is asked for: only sends (their confirmations
        come to :meth:`_listen`), so it shares the connection with the reader."""
        while True:
            add, channel = await self._changes.get()
            if add and channel not in self.channels:
                self.channels.add(channel)
                await pubsub.subscribe(channel)
            elif add:
                self._confirmed(channel)  # listened to already
            elif channel in self.channels:
                self.channels.discard(channel)
                await pubsub.unsubscribe(channel)

    def _dispatch(self, channel: str, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        if channel == self.inbox:
            self._for_client(data)
        elif channel == self.owners:
            self._new_owner(data)
        elif channel == self.people:
            if data.get("from") != self.me:  # this process delivered its own already
                self.hub.people.deliver(data)
        elif channel.startswith(self.prefix + "t:"):
            self._at_owner(channel[len(self.prefix) + 2:], data)

    # ------------------------------------------------------------------ the owner's side
    def _at_owner(self, table_id: str, data: JsonDict) -> None:
        table = self.hub.tables.get(table_id)
        if table is None or isinstance(table, Mirror):
            return
        op = data.get("op")
        if op == "call":
            self._spawn(self._answer(table, data))
            return
        cid = data.get("cid")
        if not isinstance(cid, str):
            return
        if op == "bye":
            gone = self.remotes.pop(cid, None)
            if gone is not None:
                gone.stop()
            return
        remote = self.remotes.get(cid)
        if remote is not None and remote.table is not table:  # the table was reloaded
            remote.stop()
            remote = None
        if remote is None:
            lang, client = data.get("lang"), data.get("client")
            remote = RemoteSession(self, table, cid, str(data.get("from")),
                                   self._seat(table, data),
                                   lang if isinstance(lang, str) and lang in LANGUAGES else "en",
                                   client if isinstance(client, str) else None)
            account = data.get("account")  # the reader's, whose mutes its talk keeps
            if isinstance(account, int) and not isinstance(account, bool):
                remote.conn.account = account
            self.remotes[cid] = remote
            remote.start()
        elif data.get("sync") is True:  # its process lost messages: the current state
            remote.conn.push(encode({"type": "table", "table": table.summary()}))
            table.send_view(remote.conn)
        remote.seen = time.monotonic()
        if op == "msg" and isinstance(data.get("text"), str):
            remote.inbox.put_nowait((data["text"], asyncio.get_running_loop().time()))

    @staticmethod
    def _seat(table: Table, data: JsonDict) -> Seat | None:
        """The seat a relayed client holds, if its hash still matches the seat's (a seat
        that changed hands meanwhile makes it a spectator)."""
        seat, digest = data.get("seat"), data.get("hash")
        if isinstance(seat, int) and not isinstance(seat, bool) \
                and 0 <= seat < table.num_seats and digest is not None \
                and table.seats[seat].token_hash == digest:
            return seat
        return None

    async def _answer(self, table: Table, data: JsonDict) -> None:
        reply: JsonDict = {"reply": data.get("id")}
        try:
            reply["ok"] = await self._run(table, str(data.get("name")), data.get("args") or {})
        except ProtocolError as err:  # its message id and parameters: the asker renders it
            reply["error"] = {"code": err.code, "text": message_to_json(err.text)}
        except Exception:
            log.exception("table %s: a forwarded request failed", table.id)
            reply["error"] = {"code": "internal", "text": message_to_json(
                Message(N_("something went wrong on the server")))}
        await self.publish(self.process_channel(str(data.get("from"))), reply)

    async def _run(self, table: Table, name: str, args: JsonDict) -> JsonDict:
        hub = self.hub
        seat = self._seat(table, args)
        if args.get("hash") is not None and seat is None and name != "join":
            raise ProtocolError("bad_token", "that seat token is not valid for this table")
        if name == "summary":
            pass
        elif name == "join":
            digest = args.get("hash")
            if not isinstance(digest, str):
                raise ProtocolError("bad_message", "a join needs the token's hash")
            wanted = args.get("seat")
            account, client = args.get("account"), args.get("client")
            joined, _ = await hub.join(table, args.get("name"),  # type: ignore[arg-type]
                                       wanted if isinstance(wanted, int) else None, digest,
                                       account if isinstance(account, int) else None,
                                       client if isinstance(client, str) else None)
            return {"table": table.summary(), "seat": joined}
        elif name == "again":
            await hub.again(table, seat)
        elif name == "leave":
            await hub.leave(table, seat)
        elif name == "free":
            await hub.free_seat(table, seat, args.get("other"))
        else:
            raise ProtocolError("bad_message", "no such request {name}", name=Code(name))
        return {"table": table.summary()}

    # ------------------------------------------------------------------ the relaying side
    def _new_owner(self, data: JsonDict) -> None:
        """A table has a new owner: this process's clients at it are announced to it at
        once (it greets them with the current view), so they play on within moments."""
        table_id = data.get("table")  # (its new owner may be this process itself)
        if not isinstance(table_id, str):
            return
        for cid, one in list(self.clients.items()):
            if one.table_id == table_id:
                self._spawn(self._announce(cid, one, sync=False))

    async def _announce(self, cid: str, one: Relayed, sync: bool) -> None:
        if not await self.publish(self.table_channel(one.table_id), {
                "op": "seat", "cid": cid, "from": self.me, "seat": one.seat,
                "hash": one.digest, "client": one.client, "lang": one.conn.lang,
                "sync": sync}):
            self._adopt(one.table_id)

    async def offer(self, table_id: str, process: str) -> None:
        """Ask ``process`` to take ``table_id`` now (its lease has just been let go)."""
        await self.publish(self.process_channel(process), {"adopt": table_id})

    def _for_client(self, data: JsonDict) -> None:
        if isinstance(data.get("adopt"), str):  # a table handed over to this process
            if self.hub.taking:
                self._adopt(data["adopt"])
            return
        if "reply" in data:
            fut = self.calls.get(data["reply"]) if isinstance(data["reply"], int) else None
            if fut is not None and not fut.done():
                fut.set_result(data)
            return
        found = self.clients.get(str(data.get("cid")))
        if found is None:
            return
        conn = found.conn
        if isinstance(data.get("close"), int):
            conn.kick(data["close"])
        elif isinstance(data.get("text"), str):
            conn.push(data["text"])

    async def serve(self, ws: WebSocket, table: Mirror, seat: Seat | None, client: ClientKey,
                    lang: str = "en", account: int | None = None) -> None:
        """Relay one client of a table another process owns, from its hello to its going
        (the owner speaks to it in ``lang``, limits its hints as ``client``'s, and keeps
        the mutes of ``account``, the signed-in reader's, in the talk it sends it)."""
        cid = f"{self.me}/{next(self._ids)}"
        digest = table.seats[seat].token_hash if seat is not None else None

        async def close() -> None:
            await ws.close(code=conn.close_code or 4408)

        conn = socket_connection(ws, seat, close, lang)
        relayed = self.clients[cid] = Relayed(conn, table.id, seat, digest, client_hash(client))
        pump = asyncio.create_task(conn.pump())
        here = {"cid": cid, "from": self.me, "seat": seat, "hash": digest, "lang": lang,
                "client": relayed.client, "account": account}

        async def forward(raw: str | bytes | None, at: float) -> None:
            text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw or ""
            self.relayed += 1
            if not await self.publish(self.table_channel(table.id), here | {"op": "msg",
                                                                           "text": text}):
                if self.outages.down(REDIS):
                    conn.push(encode(unavailable(REDIS).to_json(lang)))
                    conn.kick(TRY_LATER)
                    return
                conn.push(encode(ProtocolError("unavailable", MOVING).to_json(lang)))
                self._adopt(table.id)

        try:
            if not await self.publish(self.table_channel(table.id), here | {"op": "seat"}):
                if self.outages.down(REDIS):  # no way to its owner: try later, or elsewhere
                    conn.push(encode(unavailable(REDIS).to_json(lang)))
                    conn.kick(TRY_LATER)
                else:
                    self._adopt(table.id)  # nobody owns it now: the refresh tries again
            await pass_on(ws, conn, self.hub, forward)
        finally:
            del self.clients[cid]
            await self.publish(self.table_channel(table.id), {"op": "bye", "cid": cid})
            conn.stop()
            try:
                await asyncio.wait_for(pump, 5)
            except (TimeoutError, Exception):
                pump.cancel()

    def _adopt(self, table_id: str) -> None:
        """Nobody answered for the table: take it over if its lease has run out."""
        if table_id in self._adopting:
            return
        self._adopting.add(table_id)

        async def adopt() -> None:
            try:
                await self.hub.get(table_id)
            except ProtocolError as err:  # another process holds it, or it is unreachable
                if err.code == "unrestorable":
                    self._closed(table_id, err)
            finally:
                self._adopting.discard(table_id)

        self._spawn(adopt())

    def _closed(self, table_id: str, err: ProtocolError) -> None:
        """The table turned out unrestorable (here, or at the process that tried to take
        it over): its clients here get what its owner's own clients get, the error and
        the close 4410, rather than waiting for an owner that will never come."""
        for one in list(self.clients.values()):
            if one.table_id == table_id:
                one.conn.push(encode(err.to_json(one.conn.lang)))
                one.conn.kick(UNRESTORABLE)

    async def call(self, table_id: str, name: str, args: JsonDict) -> JsonDict:
        """Ask the owner of ``table_id`` to carry out an HTTP request; its answer, or its
        refusal raised here as a :class:`ProtocolError`."""
        call_id = next(self._ids)
        fut: asyncio.Future[JsonDict] = asyncio.get_running_loop().create_future()
        self.calls[call_id] = fut
        try:
            sent = await self.publish(self.table_channel(table_id), {
                "op": "call", "id": call_id, "from": self.me, "name": name, "args": args})
            if not sent:
                if self.outages.down(REDIS):
                    raise unavailable(REDIS)
                self._adopt(table_id)
                raise ProtocolError("unavailable", MOVING)
            try:
                reply = await asyncio.wait_for(fut, CALL_TIMEOUT)
            except TimeoutError:
                raise ProtocolError("unavailable", MOVING) from None
        finally:
            self.calls.pop(call_id, None)
        if "error" in reply:
            err = reply["error"]
            try:
                text = message_from_json(err.get("text"))
            except ValueError:
                text = Message(N_("something went wrong on the server"))
            raise ProtocolError(str(err.get("code")), text)
        ok = reply.get("ok")
        return ok if isinstance(ok, dict) else {}

    # ------------------------------------------------------------------ every REFRESH
    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            try:
                await self.refresh()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if not self._outage(err):
                    log.exception("the relay's refresh failed")

    async def refresh(self, sync: bool = False) -> None:
        """Say "still here" for each relayed client (a new owner greets it), forget the
        relayed clients nobody spoke for, keep this process's open sockets counted (the
        shared socket caps) and list its open tables. With ``sync`` (after Redis came
        back), each client's owner sends it the current view again."""
        for cid, one in list(self.clients.items()):
            await self._announce(cid, one, sync)
        now = time.monotonic()
        for cid, remote in list(self.remotes.items()):
            if now - remote.seen > STALE:
                del self.remotes[cid]
                remote.stop()
        await self.limits.renew()
        await self.list_tables()

    # ------------------------------------------------------------------ the lobby
    @property
    def _lobby(self) -> str:
        return f"{self.prefix}lobby"

    async def list_tables(self) -> None:
        tables = [t for t in self.hub.tables.values() if t.is_open and t.listed]
        gone = [t.id for t in self.hub.tables.values() if not (t.is_open and t.listed)]
        if gone:
            await self._unlist(gone)
        if not tables:
            return
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._lobby, mapping={t.id: json.dumps(t.summary()) for t in tables})
            pipe.zadd(self._lobby + ":seen", {t.id: now for t in tables})
            for key in (self._lobby, self._lobby + ":seen"):  # gone once every process is
                pipe.expire(key, LOBBY_KEPT)
            await pipe.execute()

    async def _unlist(self, table_ids: list[str]) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hdel(self._lobby, *table_ids)
                pipe.zrem(self._lobby + ":seen", *table_ids)
                await pipe.execute()
        except RedisError:
            pass

    async def lobby(self, limit: int) -> list[JsonDict]:
        """Every process's listed open tables (newest first), as their owners last wrote
        them; entries not written again for :data:`LOBBY_FRESH` seconds are dropped."""
        mine = {t.id: t for t in self.hub.tables.values() if t.is_open and t.listed}
        try:
            out = await self._others(mine)
        except (RedisError, OSError) as err:  # this process's own tables, while it is away
            self.outages.failed(REDIS, err)
            out = {}
        out |= {t.id: t.summary() for t in mine.values()}  # this process's, fresh
        return sorted(out.values(), key=lambda s: -float(s.get("created", 0)))[:limit]

    async def _others(self, mine: dict[str, Table]) -> dict[str, Any]:
        """The other processes' lobby entries, from Redis."""
        now = time.time()
        seen = self._lobby + ":seen"
        old = await self.redis.zrangebyscore(seen, "-inf", now - LOBBY_FRESH)
        if old:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zrem(seen, *old)
                pipe.hdel(self._lobby, *old)
                await pipe.execute()
        ids = [str(i) for i in await self.redis.zrangebyscore(seen, now - LOBBY_FRESH, "+inf")]
        texts = await self.redis.hmget(self._lobby, ids) if ids else []
        out: dict[str, Any] = {}
        for table_id, text in zip(ids, texts, strict=True):
            if text is not None and table_id not in mine:
                summary = json.loads(text)
                if summary.get("status") in ("waiting", "playing"):
                    out[table_id] = summary
        self.outages.answered(REDIS)
        return out
