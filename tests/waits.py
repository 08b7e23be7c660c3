"""Every wait in the tests has a deadline and says what it waited for when it runs out.

A test never waits with no end (a message that never comes, a thread that never ends, a
condition that never turns true would hang the run until pytest-timeout kills it, with no
word of what was missing): it waits through one of these, each with a deadline (:data:`WAIT`
unless it says otherwise) and a description of what it waits for, which the failure names.
"""

from __future__ import annotations

import asyncio
import json
import select
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import anyio

T = TypeVar("T")

#: Seconds a test waits for something that takes well under a second on an idle machine:
#: generous for a machine under load (two busy programs beside the suite on two cores),
#: far below pytest-timeout's 300, so that a wait that runs out fails the test with its
#: reason instead of hanging it.
WAIT = 60.0


class WaitedTooLong(AssertionError):
    """A wait ran out: the message names what the test waited for."""


class Deadline:
    """The end of one wait for ``what``, ``seconds`` from now (a loop of several receives
    shares one)."""

    def __init__(self, what: str, seconds: float = WAIT) -> None:
        self.what = what
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self, detail: str = "") -> float:
        """The seconds left; raises :class:`WaitedTooLong` once there are none."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise self.ran_out(detail)
        return left

    def ran_out(self, detail: str = "") -> WaitedTooLong:
        return WaitedTooLong(f"waited {self.seconds:g} s for {self.what}"
                             + (f"; {detail}" if detail else ""))


def wait_until(check: Callable[[], T], what: str, seconds: float = WAIT,
               every: float = 0.05) -> T:
    """Ask ``check()`` every ``every`` seconds until it gives something true, and return
    that; fail naming ``what`` after ``seconds``."""
    deadline = Deadline(what, seconds)
    while not (result := check()):
        time.sleep(min(every, deadline.left()))
    return result


async def within(work: Awaitable[T], what: str, seconds: float = WAIT) -> T:
    """Await ``work`` (in a test's own event loop); fail naming ``what`` after ``seconds``."""
    try:
        return await asyncio.wait_for(work, seconds)
    except TimeoutError:
        raise Deadline(what, seconds).ran_out() from None


def joined(thread: threading.Thread, what: str, seconds: float = WAIT) -> None:
    """Wait for ``thread`` to end."""
    thread.join(seconds)
    if thread.is_alive():
        raise Deadline(what, seconds).ran_out()


def ended(proc: subprocess.Popen[Any], what: str, seconds: float = WAIT) -> int:
    """Wait for the process ``proc`` to end; its return code."""
    try:
        return proc.wait(seconds)
    except subprocess.TimeoutExpired:
        raise Deadline(what, seconds).ran_out(f"process {proc.pid} still runs") from None


def line_from(proc: subprocess.Popen[str], what: str, seconds: float = WAIT) -> str:
    """The next line ``proc`` writes to its stdout (a pipe)."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    if not ready:
        raise Deadline(what, seconds).ran_out(f"process {proc.pid} wrote no line")
    return proc.stdout.readline()


def set_within(event: threading.Event, what: str, seconds: float = WAIT) -> None:
    """Wait for ``event`` to be set."""
    if not event.wait(seconds):
        raise Deadline(what, seconds).ran_out()


# ----------------------------------------------------------------------------- websockets
def receive_json(ws: Any, deadline: Deadline, seen: Sequence[Any] = ()) -> Any:
    """The next JSON message of a Starlette ``TestClient`` websocket ``ws`` (whose own
    ``receive_json`` waits with no end), before ``deadline``; a closed socket raises
    ``WebSocketDisconnect`` as ``receive_json`` does. A wait that runs out names what it
    waited for and the last messages ``seen``."""
    left = deadline.left(last_messages(seen))
    try:
        message = ws.portal.call(_receive_within, ws._send_rx.receive, left)
    except TimeoutError:
        raise deadline.ran_out(last_messages(seen)) from None
    ws._raise_on_close(message)
    return json.loads(message["text"])


def next_json(ws: Any, what: str, seconds: float = WAIT) -> Any:
    """The next JSON message of a ``TestClient`` websocket: ``what`` the test waits for."""
    return receive_json(ws, Deadline(what, seconds))


def next_frame(ws: Any, what: str, seconds: float = WAIT) -> Any:
    """The next JSON message of a ``websockets`` client connection (a real server's), whose
    own timeout names nothing: ``what`` the test waits for."""
    try:
        return json.loads(ws.recv(timeout=seconds))
    except TimeoutError:
        raise Deadline(what, seconds).ran_out() from None


async def _receive_within(receive: Callable[[], Awaitable[T]], seconds: float) -> T:
    with anyio.fail_after(seconds):  # a memory stream's receive is cancelled cleanly
        return await receive()


def last_messages(seen: Sequence[Any], count: int = 3) -> str:
    """What came last before a wait ran out (each shortened): the test's best clue."""
    if not seen:
        return "no message came"
    shown = [json.dumps(m)[:200] for m in seen[-count:]]
    return f"{len(seen)} messages came, the last: " + " | ".join(shown)
