"""Play: one websocket per client at ``/ws/tables/{id}``. The client says hello (with its
seat token, if it holds one), then sends intents and gets views; see ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import functools
import logging

from fastapi import APIRouter, WebSocket

from parlour.server.cluster.lease import Elsewhere
from parlour.server.cluster.outages import TRY_LATER
from parlour.server.cluster.relay import Mirror, Relay, mirror
from parlour.server.edge.deps import ClientDep, GuardDep, HubDep, RelayDep, check_origin
from parlour.server.edge.errors import refusal
from parlour.server.edge.language import chosen, language_of
from parlour.server.edge.limits import ClientGuard, ClientKey
from parlour.server.edge.protocol import Hello, ProtocolError, encode, parse_message
from parlour.server.people.identity import get_account
from parlour.server.play.sessions import Session
from parlour.server.play.table import Table
from parlour.server.play.tables import Hub

log = logging.getLogger("parlour.server")

router = APIRouter()

HELLO_TIMEOUT = 15.0  # seconds a client has to say hello


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str, hub: HubDep, guard: GuardDep,
               client: ClientDep, relay: RelayDep) -> None:
    """Check the handshake (origin, the client's connections), then the hello, then play.
    A refused handshake gets an HTTP answer in the error shape (403, 429)."""
    try:
        check_origin(ws, hub.settings.limits)
        release = await guard.open_socket(client, table_id)
    except ProtocolError as err:
        await ws.send_denial_response(refusal(err, language_of(ws)))
        return
    try:
        await ws.accept()
        await greet(ws, table_id, hub, relay, guard, client)
    finally:
        await release()


async def greet(ws: WebSocket, table_id: str, hub: Hub, relay: Relay | None,
                guard: ClientGuard, client: ClientKey) -> None:
    """The hello: the table must exist and the token (if any) hold one of its seats. A
    table another process owns is relayed to it (with ``--redis``; else the client is
    told to come back: 1013, try again later). The client's language is the hello's
    ``lang`` if Parlour speaks it, else its cookie's or Accept-Language's
    (:func:`parlour.server.edge.language.language_of`). The ``guard`` limits the hints of
    ``client``."""
    lang = language_of(ws)

    async def refuse(err: ProtocolError, code: int) -> None:
        await ws.send_text(encode(err.to_json(lang)))
        await ws.close(code=code)

    table: Table | None
    try:
        table = await hub.get(table_id)
    except Elsewhere as err:
        if relay is None:
            await refuse(err, TRY_LATER)
            return
        try:
            table = mirror(hub, err.row)
        except ProtocolError as bad:
            await refuse(bad, 4410)
            return
    except ProtocolError as err:  # a table that could not be restored: closed
        await refuse(err, TRY_LATER if err.code == "unavailable" else 4410)
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
        lang = chosen(hello.lang) or lang
        seat = table.seat_for(hello.token)
        if seat is None:
            hub.check_watchable(table)
    except ProtocolError as err:
        await refuse(err, 4403 if err.code in ("bad_token", "daily_secret") else 4400)
        return
    account = await reader_account(ws)
    watcher = account if seat is None else None  # (their friends see them at this table)
    if watcher is not None:
        await hub.people.watching(watcher, table.id)
    try:
        if isinstance(table, Mirror):
            assert relay is not None
            await relay.serve(ws, table, seat, client, lang, account)
        else:
            await Session(hub, table, ws, seat, lang,
                          functools.partial(guard.take, "hint", client), account).run()
    finally:
        if watcher is not None:
            hub.people.stopped_watching(watcher)


async def reader_account(ws: WebSocket) -> int | None:
    """The signed-in reader's account, whose mutes the talk it is sent keeps (none for a
    guest). A database out of reach at the hello does not refuse the socket: the page
    hides the account's muted players' talk as well (parlour/web/talk.js)."""
    try:
        signed_in = await get_account(ws)
    except Exception:
        log.warning("the account of a socket could not be read: its mutes wait for the page")
        return None
    return signed_in.id if signed_in is not None else None
