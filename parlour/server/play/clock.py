"""The timed-phase clock: a state's :meth:`~parlour.engine.State.reaction` (e.g. the slap of
Hit the Deck) is timed here, not by the clients.

The server notes when the views that open a phase went out, times each seat's ``react``
from then to its arrival, and answers for the seats still silent when the window closes
with the slowest time. See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from parlour.engine import Seat
from parlour.message import Term
from parlour.server.cluster.outages import DATABASE, Outages
from parlour.server.edge.protocol import ProtocolError
from parlour.server.play.phase import OpenReaction

if TYPE_CHECKING:
    from parlour.server.play.table import Table

log = logging.getLogger("parlour.server")

RETRY_FIRST, RETRY_MOST = 0.5, 5.0  # seconds between tries of a write the database refused

#: How the clock hands an answer in: ``submit(table, seat, action, version, phase)``.
Submit = Callable[["Table", Seat, int, "int | None", "str | None"], Awaitable[None]]


class ReactionClock:
    """Opens, times and closes the timed phases of every table, through ``submit``."""

    def __init__(self, submit: Submit, slowdown: float = 1.0) -> None:
        if not slowdown > 0:
            raise ValueError(f"reaction_slowdown must be above 0, not {slowdown}")
        self.submit = submit
        self.outages = Outages()  # the hub's (parlour.server.cluster.outages)
        self.slowdown = slowdown

    def sync(self, table: Table) -> None:
        """Open the timed phase the state has just entered, or close the one it has left.
        Called under the lock after every change, before the views go out (they name the
        phase)."""
        state = table.state
        now = state.reaction() if state is not None and table.status == "playing" else None
        current = table.reaction
        if current is not None and (now is None or now.key != current.reaction.key):
            if current.timer is not None:
                current.timer.cancel()
            table.reaction = current = None
        if now is not None and current is None:
            table.reaction = OpenReaction(now, secrets.token_urlsafe(9), self.slowdown)

    def start(self, table: Table) -> None:
        """Start the clock of a timed phase whose views have just been handed to every
        connection (no await in between: the sends have not begun), and its window."""
        timed = table.reaction
        if timed is None or timed.opened is not None:
            return
        loop = asyncio.get_running_loop()
        timed.opened = loop.time()
        timed.timer = loop.call_later(timed.seconds, self._window_over, table, timed)

    def _window_over(self, table: Table, timed: OpenReaction) -> None:
        if table.reaction is timed:
            timed.closing = asyncio.create_task(self._close_window(table, timed))

    async def _close_window(self, table: Table, timed: OpenReaction) -> None:
        """The window is over: each seat that has not answered gets the slowest time."""
        slowest = timed.reaction.action(timed.reaction.window_ms)
        pause = RETRY_FIRST
        while table.reaction is timed and table.state is not None and table.state.to_act:
            seat = table.state.to_act[0]
            try:
                await self.submit(table, seat, slowest, None, timed.id)
            except ProtocolError as err:
                if err.code == "answered":
                    continue  # it came in meanwhile: on to the next one still silent
                if err.code != "unavailable":
                    log.error("table %s: the %s window could not close for seat %d: %s",
                              table.id, timed.reaction.name, seat, err.message)
                    return
                # the database refused: try again until it takes writes again
                if not self.outages.down(DATABASE):  # an outage is logged once, as such
                    log.warning("table %s: the database refused the %s window's close; "
                                "trying again in %.1f s", table.id, timed.reaction.name, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)

    async def react(self, table: Table, seat: Seat, phase: str, at: float) -> None:
        """``seat`` answers the timed phase ``phase``: its time runs from the moment the
        views opening the phase went out to ``at``, when its answer came in (both on this
        server's clock; whatever time a client might claim is never asked for)."""
        timed = table.reaction
        if timed is None or timed.opened is None:
            raise ProtocolError("no_reaction", "there is nothing to react to now")
        if phase != timed.id:
            raise ProtocolError("wrong_phase", "that is not the {reaction} now open",
                                reaction=Term("reaction", timed.reaction.name))
        action = timed.reaction.action(timed.answer_ms(at - timed.opened))
        await self.submit(table, seat, action, None, phase)
