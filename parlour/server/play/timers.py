"""How the server's timers are scheduled: the turn timers and the rated forfeits go through
``Settings.call_later`` (None: the running event loop's own), so that a test runs them by its
own clock (tests/server_kit.py's Clock) and a timer fires when the test moves time, never
because a loaded machine was slow."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A pending call (an ``asyncio.TimerHandle`` in play)."""

    def cancel(self) -> None: ...


#: ``call_later(seconds, callback)``: a timer on the event loop.
CallLater = Callable[[float, Callable[[], None]], Timer]


def loop_call_later(seconds: float, callback: Callable[[], None]) -> Timer:
    return asyncio.get_running_loop().call_later(seconds, callback)
