"""Messages written straight to a client's socket (``send_now``, offered by the guarded
websocket of parlour/server/edge/listener.py): in order with what waits in the queue, and over a
real server (uvicorn, real sockets) the welcome and every view arrive whole and in order."""

from __future__ import annotations

import asyncio
import json

import pytest
from server_kit import seated_socket
from waits import next_frame
from websockets.frames import Frame, Opcode

from parlour.server.edge.listener import text_frame
from parlour.server.play import sessions
from parlour.server.play.table import Connection


def test_a_message_is_written_at_once_unless_others_wait_before_it():
    written: list[str] = []
    pumped: list[str] = []
    socket_full = False

    def send_now(text: str) -> bool:
        if socket_full:
            return False
        written.append(text)
        return True

    async def send(text: str) -> None:
        pumped.append(text)

    async def play() -> None:
        nonlocal socket_full
        conn = Connection(send, 0, None, "en", send_now)
        conn.push("a")  # the socket takes it: written, nothing queued
        socket_full = True
        conn.push("b")  # the socket would wait: queued for the pump
        socket_full = False
        conn.push("c")  # the socket takes it again, but "b" waits before it: queued too
        assert written == ["a"] and conn.outbox.qsize() == 2
        pump = asyncio.create_task(conn.pump())
        conn.stop()
        await pump
        assert pumped == ["b", "c"]
        conn.push("d")  # closed: neither written nor queued
        assert written == ["a"] and pumped == ["b", "c"]

    asyncio.run(play())


def test_views_reach_a_real_socket_whole_and_in_order(tmp_path, monkeypatch):
    made: list[Connection] = []
    real = sessions.socket_connection

    def recorded(*args, **kwargs) -> Connection:
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(sessions, "socket_connection", recorded)
    with seated_socket(tmp_path / "send.sqlite3", bot_pause=0.0) as (ws, first):
        seat, versions, acted = first["seat"], [], 0
        while acted < 5:
            msg = next_frame(ws, "a view")
            assert msg["type"] == "view", msg
            versions.append(msg["version"])
            view = msg["view"]
            if seat in view["to_act"] and view["legal"]:
                ws.send(json.dumps({"type": "act", "action": view["legal"][0],
                                    "version": msg["version"]}))
                acted += 1
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
        assert made and made[0].send_now is not None  # the server offered the socket


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
def test_a_frame_made_here_is_the_frame_websockets_makes(size):
    """send_now frames a text message itself (no extension agreed): byte for byte what
    websockets' own server side sends, at each length's header size (7, 16 and 64 bits)."""
    payload = bytes(i % 251 for i in range(size))
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False,
                                                                         extensions=[])
