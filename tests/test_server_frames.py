"""The frames a client sends, read by the guarded websocket (parlour/server/edge/listener.py):
a short text message on its own, every other frame by websockets whole, over a real server
(uvicorn, real sockets). Several frames in one write, a ping between messages, a fragmented
and a long message, a frame cut across two writes (after which websockets reads the rest of
the connection), and text that is not UTF-8 (closed with 1007), each answered as websockets
alone answers it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_kit import seated_socket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from waits import next_frame
from websockets.exceptions import ConnectionClosedError
from websockets.frames import Frame, Opcode
from websockets.sync.client import ClientConnection

PING = b'{"type":"ping"}'


def frame(opcode: Opcode, data: bytes, fin: bool = True) -> bytes:
    """A client's frame (masked), as a browser sends it."""
    return Frame(opcode, data, fin=fin).serialize(mask=True, extensions=[])


@pytest.fixture
def seated(tmp_path, monkeypatch) -> Iterator[tuple[ClientConnection, list[bytes]]]:  # type: ignore[no-untyped-def]
    """A seated client's connection (the welcome and first view read), and the bytes each
    call of websockets' own reading (uvicorn's ``data_received``) was given."""
    given: list[bytes] = []
    real = WebSocketsSansIOProtocol.data_received

    def recorded(self: Any, data: bytes) -> None:
        given.append(bytes(data))
        real(self, data)

    monkeypatch.setattr(WebSocketsSansIOProtocol, "data_received", recorded)
    with seated_socket(tmp_path / "frames.sqlite3", bot_pause=0.0) as (ws, _):
        given.clear()
        yield ws, given


def pongs(ws: ClientConnection, count: int) -> None:
    for n in range(count):
        message = next_frame(ws, f"pong {n + 1} of {count}")
        while message["type"] != "pong":  # (the bots' views come as they play)
            message = next_frame(ws, f"pong {n + 1} of {count}")


def test_short_messages_are_read_here_and_a_ping_between_them_by_websockets(seated):
    ws, given = seated
    ping = frame(Opcode.PING, b"hi")
    ws.socket.sendall(frame(Opcode.TEXT, PING) + ping + frame(Opcode.TEXT, PING)
                      + frame(Opcode.TEXT, PING))
    pongs(ws, 3)
    assert given == [ping]  # the ping alone went to websockets, and it answered it
    assert ws.ping().wait(10)  # the connection is whole


def test_fragmented_and_long_messages_go_to_websockets_whole(seated):
    ws, given = seated
    long = PING[:-1] + b" " * 200 + b"}"
    first, second = frame(Opcode.TEXT, PING[:5], fin=False), frame(Opcode.CONT, PING[5:])
    lengthy, short = frame(Opcode.TEXT, long), frame(Opcode.TEXT, PING)
    ws.socket.sendall(lengthy + short + first + second + short)
    pongs(ws, 4)
    # each whole; the last short one, the fragmented message over, read here again
    assert given == [lengthy, first, second]


def test_a_frame_cut_across_writes_leaves_the_connection_to_websockets(seated):
    ws, given = seated
    whole, after = frame(Opcode.TEXT, PING), frame(Opcode.TEXT, PING)
    ws.socket.sendall(whole[:3])
    time.sleep(0.2)  # (two reads on the server: the first holds a part of the header)
    ws.socket.sendall(whole[3:])
    pongs(ws, 1)
    ws.socket.sendall(after)
    pongs(ws, 1)
    assert given == [whole[:3], whole[3:], after]  # the next frame went to websockets too


def test_text_that_is_not_utf8_is_refused_as_websockets_refuses_it(seated):
    ws, _ = seated
    ws.socket.sendall(frame(Opcode.TEXT, b'{"type":"ping","x":"\xff"}'))
    with pytest.raises(ConnectionClosedError) as closed:
        for _ in range(20):
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
