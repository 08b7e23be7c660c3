"""Play: one websocket per client at ``/ws/tables/{id}``. The client says hello (with its
seat token, if it holds one), then sends intents and gets views; see ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import logging
import time

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from parlour.engine import Seat
from parlour.server.deps import ClientDep, GuardDep, HubDep, check_origin
from parlour.server.errors import refusal
from parlour.server.protocol import (
    Act,
    Hello,
    HintAsk,
    Message,
    Ping,
    ProtocolError,
    RateLimit,
    React,
    Stale,
    Sync,
    encode,
    parse_message,
)
from parlour.server.tables import Connection, Hub, Table

log = logging.getLogger("parlour.server")

router = APIRouter()

HELLO_TIMEOUT = 15.0  # seconds a client has to say hello
MAX_REFUSED = 40  # messages refused for speed before the connection is closed


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str, hub: HubDep, guard: GuardDep,
               client: ClientDep) -> None:
    """Check the handshake (origin, the client's connections), then the hello, then play.
    A refused handshake gets an HTTP answer in the error shape (403, 429)."""
    try:
        check_origin(ws, hub.settings.limits)
        release = guard.open_socket(client, table_id)
    except ProtocolError as err:
        await ws.send_denial_response(refusal(err))
        return
    try:
        await ws.accept()
        await greet(ws, table_id, hub)
    finally:
        release()


async def greet(ws: WebSocket, table_id: str, hub: Hub) -> None:
    """The hello: the table must exist and the token (if any) hold one of its seats."""

    async def refuse(err: ProtocolError, code: int) -> None:
        await ws.send_text(encode(err.to_json()))
        await ws.close(code=code)

    try:
        table = await hub.get(table_id)
    except ProtocolError as err:  # a table that could not be restored: closed
        await refuse(err, 4410)
        return
    if table is None:
        await refuse(ProtocolError("not_found", "there is no table with that id"), 4404)
        return
    try:
        first = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
    except TimeoutError:
        await refuse(ProtocolError("bad_message", "say hello first"), 4400)
        return
    if first["type"] == "websocket.disconnect":
        return
    try:
        hello = parse_message(first.get("text", first.get("bytes")))
        if not isinstance(hello, Hello):
            raise ProtocolError("bad_message", 'the first message is {"type": "hello"} '
                                               '(with the seat token, if you hold one)')
        seat = table.seat_for(hello.token)
        if seat is None:
            hub.check_watchable(table)
    except ProtocolError as err:
        await refuse(err, 4403 if err.code in ("bad_token", "daily_secret") else 4400)
        return
    await Session(hub, table, ws, seat).run()


class Session:
    """One client at one table, from its hello to its going."""

    def __init__(self, hub: Hub, table: Table, ws: WebSocket, seat: Seat | None) -> None:
        self.hub = hub
        self.table = table
        self.ws = ws
        self.conn = Connection(ws.send_text, seat, self._drop)
        self.asking: set[asyncio.Task[None]] = set()  # hints being worked out for it

    async def _drop(self) -> None:
        """Close a client that fell too far behind (it reconnects for the current view)."""
        await self.ws.close(code=4408)

    async def run(self) -> None:
        table, conn = self.table, self.conn
        table.conns.add(conn)
        table.touched = time.monotonic()
        if conn.seat is not None:  # its person is back: a stand-in gives the seat up
            table.people_seen = table.touched
            self.hub.reclaim(table, conn.seat)
        pump = asyncio.create_task(conn.pump())
        conn.push(encode({"type": "welcome", "seat": conn.seat, "table": table.summary()}))
        table.send_view(conn)
        limiter = RateLimit(self.hub.settings.rate, self.hub.settings.burst)
        loop = asyncio.get_running_loop()
        try:
            while not conn.closed:
                message = await self.ws.receive()
                at = loop.time()  # when it came in: a react is timed to here
                if message["type"] == "websocket.disconnect":
                    break
                if not limiter.allow():
                    conn.push(encode(ProtocolError(
                        "rate_limited", "too many messages: slow down").to_json()))
                    if limiter.refused > MAX_REFUSED:
                        break
                    continue
                try:
                    await self.handle(parse_message(message.get("text", message.get("bytes"))),
                                      at)
                except Stale as err:
                    conn.push(encode(err.to_json()))
                    table.send_view(conn)
                except ProtocolError as err:
                    conn.push(encode(err.to_json()))
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: connection failed", table.id)
        finally:
            for task in self.asking:
                task.cancel()
            table.conns.discard(conn)
            table.touched = table.watched = time.monotonic()
            if conn.seat is not None:
                table.people_seen = table.touched
            conn.stop()
            try:
                await asyncio.wait_for(pump, 5)
            except (TimeoutError, Exception):
                pump.cancel()

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
                raise ProtocolError("not_your_seat", f"you hold seat {conn.seat}, not seat "
                                                     f"{msg.seat}: you can act only for your "
                                                     f"own seat")
            action = hub.parse_intent(table, msg.action)
            await hub.submit(table, conn.seat, action, msg.version, person=True)
        elif isinstance(msg, Sync):
            conn.push(encode({"type": "table", "table": table.summary()}))
            table.send_view(conn)
        elif isinstance(msg, Ping):
            conn.push(encode({"type": "pong"}))
        elif isinstance(msg, Hello):
            raise ProtocolError("bad_message", "already said hello on this connection")

    async def give_hint(self, msg: HintAsk) -> None:
        """Send the hint bot's advice for this client's seat once it is worked out."""
        table, conn = self.table, self.conn
        try:
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators get no hints: take a seat to "
                                                 "play")
            conn.push(encode(await self.hub.hint(table, conn.seat, msg.version)))
        except Stale as err:
            conn.push(encode(err.to_json()))
            table.send_view(conn)
        except ProtocolError as err:
            conn.push(encode(err.to_json()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a hint failed", table.id)
            conn.push(encode(ProtocolError("internal", "no hint could be worked out").to_json()))
