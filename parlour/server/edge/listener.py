"""The guard in front of the app, at the TCP connection: uvicorn's HTTP/1.1 protocol with a
header deadline and a per-address connection cap.

uvicorn gives a connection no deadline to finish its request headers (its keep-alive timer
is armed only after a response and stops at the next byte), so a client that sends half a
header holds its connection, and its file descriptor, forever: a thousand such sockets
from one address closed the room to everyone. :func:`guarded_protocols` returns uvicorn's
own protocol classes with two additions:

* a connection whose request header is not complete ``header_timeout`` seconds after it
  opened (or after its last response), or whose body is not complete ``body_timeout``
  seconds after its header, gets ``408`` and is closed;
* an address holding ``connections_per_address`` connections already has the next one
  closed at once (trusted proxies, which carry many clients, are exempt).

``make run`` has no reverse proxy in front, so this guard lives in the process; an nginx
in front (docs/operations.md) adds its own limits on top.
"""

from __future__ import annotations

import asyncio
import ipaddress
import resource
from collections import Counter
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import apply_mask
from websockets.http11 import Request
from websockets.protocol import State

from parlour.server.edge.limits import ClientKey, Limits, client_key

#: The ASGI scope extension of a websocket served by :func:`guarded_protocols`: a function
#: that writes one text message to the socket at once if it can (see
#: ``GuardedWebSocket.send_now``). The view of every seat goes out after each action:
#: written at once, a message skips a task's wake-up and the ASGI layers on its way out.
SEND_NOW = "parlour.send_now"

TIMEOUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\n"
                    b"content-length: 16\r\nconnection: close\r\n\r\nrequest too slow")


def raise_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; returns it.

    The event loop accepts a burst of connections (up to the listen backlog) before any of
    them reaches the cap below, so a soft limit of 1,024 (a common default) ran out under a
    burst from one address and stopped the server accepting anyone for a while."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 1_048_576 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


class ConnectionCount:
    """Open TCP connections per address (IPv6 per /64), counted once per transport."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.trusted = [ipaddress.ip_network(n, strict=False) for n in limits.trusted_proxies]
        self.count: Counter[ClientKey] = Counter()
        self.held: dict[int, ClientKey] = {}  # id(transport) -> its key

    def exempt(self, host: str) -> bool:
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def take(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection in; False if its address holds too many already."""
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        if host is None or self.exempt(host):
            return True
        key = client_key(host)
        if self.count[key] >= self.limits.connections_per_address:
            return False
        self.count[key] += 1
        self.held[id(transport)] = key
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        key = self.held.pop(id(transport), None)
        if key is not None:
            self.count[key] -= 1
            if not self.count[key]:
                del self.count[key]


#: The paths whose answer streams until the client goes (server-sent events: the room's
#: stream, parlour/server/routers/people.py).
ENDLESS = frozenset({"/api/people/events"})


def text_frame(payload: bytes) -> bytes:
    """A whole, unmasked text frame (a server's, RFC 6455 section 5.2) of ``payload``."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 1 << 16:
        return b"\x81\x7e" + size.to_bytes(2, "big") + payload
    return b"\x81\x7f" + size.to_bytes(8, "big") + payload


def guarded_protocols(limits: Limits) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn's HTTP and websocket protocol classes with the header deadline and the
    connection cap of ``limits`` (pass them as ``http=`` and ``ws=``)."""
    counted = ConnectionCount(limits)

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        """A connection upgraded to a websocket: still counted until it closes. Its ASGI
        scope carries :meth:`send_now` (the extension :data:`SEND_NOW`)."""

        #: Whether incoming frames are still read here (:meth:`data_received`): until a
        #: frame comes cut across two reads, or one that is not masked.
        reading_frames = True

        def connection_lost(self, exc: Exception | None) -> None:
            counted.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            """Read what came: each whole frame at a time. A short text message (a move,
            nearly everything a player sends) goes to the app as websockets and uvicorn
            would hand it on, at a fraction of their cost (websockets' parser, a
            generator, once cost more than the rest of a move's reading); any other frame
            (a ping, a pong, a close, a long message or a fragment of one, text that is
            not UTF-8, anything once a close began) goes to them whole, so their parser
            always starts at a frame. A frame cut across reads, or not masked, leaves the
            rest of the connection to them."""
            if not (self.reading_frames and self.handshake_complete):
                super().data_received(data)
                return
            conn = self.conn
            pos, size = 0, len(data)
            while size - pos >= 2:
                second = data[pos + 1]
                length = second & 0x7F
                head = 6 if length < 126 else 8 if length == 126 else 14
                if not second & 0x80 or size - pos < head:
                    break  # not masked (websockets refuses it), or its header is cut
                if length >= 126:
                    length = int.from_bytes(data[pos + 2:pos + head - 4], "big")
                end = pos + head + length
                if end > size:
                    break  # cut across reads
                if data[pos] == 0x81 and head == 6 and conn.state is State.OPEN \
                        and conn.current_size is None and not conn.extensions \
                        and not self.close_sent:
                    try:
                        text = apply_mask(data[pos + 6:end], data[pos + 2:pos + 6]).decode()
                    except UnicodeDecodeError:
                        text = None  # websockets closes with 1007
                    if text is not None:
                        self.queue.put_nowait({"type": "websocket.receive", "text": text})
                        pos = end
                        continue
                super().data_received(data[pos:end])  # whole: the next starts a frame
                pos = end
                if self.transport.is_closing():
                    return  # (it refused that frame, or closed: what follows is not read)
            if pos < size:
                self.reading_frames = False
                super().data_received(data[pos:])

        def handle_connect(self, event: Request) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)  # made only for a handshake accepted
            if scope is not None:
                scope["extensions"][SEND_NOW] = self.send_now

        def send_now(self, text: str | bytes) -> bool:
            """Write one text message (``bytes``: UTF-8 already) to the socket now, as the
            ASGI send would, if the socket is open and takes it without waiting (uvicorn has
            not paused writing for a full buffer); False, having written nothing, if not.

            With no extension agreed (the server offers none: no compression), a server's
            text frame is a header and the payload as it is (RFC 6455, 5.2: no mask), so
            the frame is made here: websockets' ``send_text`` would check the same state
            and build the same bytes at several times the cost, once per seat and action."""
            if not self.handshake_complete or self.close_sent or self.disconnected \
                    or self.initial_response is not None or not self.writable.is_set() \
                    or self.transport.is_closing():
                return False
            conn = self.conn
            payload = text.encode() if isinstance(text, str) else text
            if conn.state is not State.OPEN or conn.extensions \
                    or conn.expect_continuation_frame:
                try:
                    conn.send_text(payload)  # websockets says why not, or frames it
                except InvalidState:
                    return False
                self.transport.write(b"".join(conn.data_to_send()))
                return True
            self.transport.write(text_frame(payload))
            return True

    class GuardedHTTP(H11Protocol):
        admitted = False
        deadline: asyncio.TimerHandle | None = None
        reading: str | None = None  # what the deadline is for: "header" or "body"

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # uvicorn's set-up waits until the address is let in: a refused connection
            # costs next to nothing, even in a burst of thousands.
            self._setup = (args, kwargs)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if not counted.take(transport):
                transport.abort()  # no reply: the address holds too many already
                return
            args, kwargs = self._setup
            super().__init__(*args, **kwargs)
            self.ws_protocol_class = GuardedWebSocket
            self.admitted = True
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if not self.admitted:
                return
            self._disarm()
            counted.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self:
                return  # upgraded to a websocket
            state = self.conn.their_state
            if state is h11.SEND_BODY:
                if self.reading != "body":
                    self._arm("body")  # the headers are in; the body has its own deadline
            elif state is not h11.IDLE:
                self._disarm()  # the whole request is in

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if self.conn.their_state is h11.IDLE:
                self._arm("header")  # the next request's header has the same deadline
            elif self.conn.their_state is h11.SEND_BODY and self.reading != "body":
                self._arm("body")  # answered early (413): the rest must come soon or not

        def shutdown(self) -> None:
            """The server stops: a stream of the room's events still sending (it never
            ends by itself) is cut as if its client had gone, so that its page connects
            again, to a process that serves, as a websocket is closed with 1012; anything
            else finishes as uvicorn lets it."""
            cycle = self.cycle
            if self.admitted and cycle is not None and not cycle.response_complete \
                    and cycle.scope.get("path") in ENDLESS:
                self.transport.close()
                return
            super().shutdown()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)

        def _arm(self, reading: str = "header") -> None:
            self._disarm()
            self.reading = reading
            seconds = limits.header_timeout if reading == "header" else limits.body_timeout
            self.deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            self.reading = None
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self) -> None:
            self.deadline = None
            self.reading = None
            if self.transport.is_closing() or \
                    self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                return
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(TIMEOUT_RESPONSE)
            self.transport.close()

    return GuardedHTTP, GuardedWebSocket
