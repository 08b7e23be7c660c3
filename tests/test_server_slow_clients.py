"""Slow clients (issue 14, item 3): half-open connections from one address cannot close
the room to others, and a request whose body stalls is cut off. The server runs as
``parlour serve`` does (uvicorn with the guarded protocol of parlour/server/edge/listener.py), in a
subprocess given 1,024 open files, a common default, which today's server ran out of."""

from __future__ import annotations

import math
import socket
import time

import httpx
import pytest
from server_kit import ROOMY_FLAGS, ServerProcess, free_port
from waits import wait_until

ATTACKER = "127.0.0.2"  # loopback too, but another address than the other client's
HALF_HEADER = b"GET / HTTP/1.1\r\nHost: parlour\r\nUser-Agent: slow"


def open_half_requests(port: int, count: int) -> list[socket.socket]:
    """``count`` connections from the attacker's address, each with half a header sent."""
    held = []
    for _ in range(count):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.bind((ATTACKER, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(HALF_HEADER)
        except OSError:
            s.close()
            continue
        held.append(s)
    return held


def closed_by_server(s: socket.socket, got: bytearray) -> bool:
    """Whether the server closed ``s``; what it sent meanwhile is added to ``got``."""
    s.setblocking(False)
    try:
        while chunk := s.recv(4096):
            got += chunk
    except BlockingIOError:
        return False
    except OSError:
        pass
    return True


@pytest.mark.databases("sqlite")  # sockets that never send a request reach no database
def test_half_open_connections_from_one_address_do_not_starve_another(tmp_path):
    port = free_port()
    server = ServerProcess(tmp_path / "slow.sqlite3", port, max_files=1024, flags=[
        *ROOMY_FLAGS, "--header-timeout", "2", "--body-timeout", "2",
        "--connections-per-address", "64"])
    held: list[socket.socket] = []
    try:
        slow_body = socket.create_connection(("127.0.0.1", port), timeout=2)
        slow_body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: parlour\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 200\r\n\r\n{\"game\":")
        opening = time.monotonic()
        held = open_half_requests(port, 2000)
        opening = time.monotonic() - opening
        time.sleep(0.3)  # let the server take them in
        # Answered at all: today's server, out of file descriptors, answered nobody until the
        # sockets went. The target, within 1 s, is measured by bench/abuse.py on a quiet
        # machine; here the suite shares two cores, so the bound is looser.
        res = httpx.get(f"http://127.0.0.1:{port}/", timeout=3)
        assert res.status_code == 200
        # Past the header deadline, every connection the server kept got 408 and was closed.
        time.sleep(2.0)  # the deadline: none of them is closed for it before
        answers = {s: bytearray() for s in [*held, slow_body]}
        wait_until(lambda: all([closed_by_server(s, got) for s, got in answers.items()]),
                   "the server to close every connection past its header deadline")
        timed_out = [a for s, a in answers.items() if s is not slow_body
                     and a.startswith(b"HTTP/1.1 408")]
        # at most 64 at a time; a loaded machine still opening them when the first ones
        # timed out (2 s) had the freed places taken again, a batch of 64 each 2 s
        batches = 1 + math.ceil(opening / 2)
        assert 1 <= len(timed_out) <= 64 * batches, (len(timed_out), opening)
        assert answers[slow_body].startswith(b"HTTP/1.1 408")
        assert httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200
    finally:
        for s in held:
            s.close()
        server.stop()
    assert "Traceback" not in server.log_text()
