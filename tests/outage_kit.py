"""Outages the tests make themselves: a TCP proxy between the server and PostgreSQL or Redis
that the test cuts and restores. The shared PostgreSQL and Redis (other tests, other
people) are never stopped: only the proxy's connections are. Cut, it closes every
connection it carries and refuses new ones (as a stopped server's port does); restored,
it listens on the same port again."""

from __future__ import annotations

import contextlib
import logging
import selectors
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

from waits import joined

CHUNK = 65536


class Cuttable:
    """A proxy from 127.0.0.1:``port`` to ``target`` (host, port), run by one thread."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._listener: socket.socket | None = None
        self._pairs: dict[socket.socket, socket.socket] = {}
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._lock = threading.Lock()
        self._stopping = False
        self._listen()
        self._thread = threading.Thread(target=self._run, name="cuttable-proxy", daemon=True)
        self._thread.start()

    def url(self, url: str) -> str:
        """``url`` (a database's or Redis's, naming the target) through this proxy."""
        parts = urlsplit(url)
        user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    def _listen(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.setblocking(False)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._selector.register(listener, selectors.EVENT_READ)

    def _wake(self) -> None:
        self._wake_w.send(b"x")

    def cut(self) -> None:
        """Close every connection and stop listening: the dependency is gone."""
        with self._lock:
            if self._listener is not None:
                self._selector.unregister(self._listener)
                self._listener.close()
                self._listener = None
            for sock in list(self._pairs):
                self._drop(sock)
        self._wake()

    def restore(self) -> None:
        """Listen again on the same port: the dependency is back."""
        with self._lock:
            if self._listener is None:
                self._listen()
        self._wake()

    def close(self) -> None:
        self._stopping = True
        self.cut()
        joined(self._thread, "the proxy's thread to stop", 5)

    def _drop(self, sock: socket.socket) -> None:
        other = self._pairs.pop(sock, None)
        for one in (sock, other):
            if one is None:
                continue
            self._pairs.pop(one, None)
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(one)
            with contextlib.suppress(OSError):  # a reset, as a dead peer's kernel answers
                one.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            one.close()

    def _run(self) -> None:
        while not self._stopping:
            for key, _ in self._selector.select(timeout=0.5):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                with self._lock:
                    if sock is self._wake_r:
                        sock.recv(CHUNK)
                    elif sock is self._listener:
                        self._accept()
                    elif sock in self._pairs:
                        self._pass(sock)

    def _accept(self) -> None:
        assert self._listener is not None
        try:
            client, _ = self._listener.accept()
        except OSError:
            return
        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError:
            client.close()
            return
        for one in (client, upstream):
            one.setblocking(False)
            self._selector.register(one, selectors.EVENT_READ)
        self._pairs[client], self._pairs[upstream] = upstream, client

    def _pass(self, sock: socket.socket) -> None:
        try:
            data = sock.recv(CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(sock)
            return
        other = self._pairs[sock]
        try:
            other.setblocking(True)
            other.sendall(data)
            other.setblocking(False)
        except OSError:
            self._drop(sock)


@contextmanager
def cuttable(url: str) -> Iterator[tuple[Cuttable, str]]:
    """A proxy to the server ``url`` names; yields it and ``url`` through it."""
    parts = urlsplit(url)
    proxy = Cuttable((parts.hostname or "127.0.0.1", parts.port or _default_port(url)))
    try:
        yield proxy, proxy.url(url)
    finally:
        proxy.close()


def _default_port(url: str) -> int:
    return 6379 if url.startswith("redis") else 5432


def lines(records: list[logging.LogRecord], words: str) -> list[logging.LogRecord]:
    return [r for r in records if words in r.getMessage()]
