"""The turn timer: a person's seat that is to act has a time to do it, and when that runs
out a stand-in bot plays the seat until its person comes back. At a rated match the
timer is never off, and a seat a stand-in plays whose person is not back within another
turn's time (:data:`FORFEIT_TURNS`) forfeits the match (``Hub.forfeit``).

The timer is the table's ``turn_seconds`` (chosen when it is opened, else the game's
default, its spec's ``turn_seconds``; 0 switches it off). A solitaire has none, whatever its
table asked for: nobody waits for its player, and no stand-in should play it. It runs for
each person's seat that is to act, and starts again with each change; a timed phase (a
reaction window) has its own clock, so no turn timer runs during one. The views carry it
(``turn``: the seats, the length, and the deadline in Unix milliseconds) so every client
can show it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from parlour.engine import JsonDict, Seat
from parlour.registry import spec
from parlour.server.play.timers import CallLater, loop_call_later

if TYPE_CHECKING:
    from parlour.server.play.table import Table

#: Seconds a person has for a turn where the game's spec names none (``turn_seconds``). A
#: solitaire has no timer: nobody waits for its player.
DEFAULT_TURN_SECONDS = 90
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 10, 3600
STAND_IN = "rule"  # the bot kind that plays for a person who is away
#: At a rated match, turns' time a stood-in seat has to come back before it forfeits the
#: match (after the turn timer that brought the stand-in, or the person leaving).
FORFEIT_TURNS = 1


def awaited(table: Table, to_act: list[Seat] | None = None) -> list[Seat]:
    """At a correspondence table (:mod:`parlour.server.play.correspondence`), the person
    seats whose move the table awaits: those to act (``to_act``, else the
    state's) that a person holds."""
    if table.move_seconds is None:
        return []
    if to_act is None:
        state = table.state
        if table.status != "playing" or state is None:
            return []
        to_act = list(state.to_act)
    return [s for s in to_act if table.seats[s].kind == "person"
            and table.seats[s].token_hash is not None]


def default_turn_seconds(game_id: str) -> int:
    found = spec(game_id)
    if found.traits.solitaire:
        return 0
    return DEFAULT_TURN_SECONDS if found.turn_seconds is None else found.turn_seconds


class TurnTimer:
    """Runs the turn timers of every table; calls ``expired(table, seat)`` when one ends."""

    def __init__(self, expired: Callable[[Table, Seat], None],
                 now: Callable[[], float] = time.time,
                 call_later: CallLater | None = None) -> None:
        self.expired = expired
        self.now = now  # the wall clock of the deadline sent (Settings.now)
        self.call_later = call_later or loop_call_later  # (Settings.call_later)

    def restart(self, table: Table) -> None:
        """Start the timers of the person seats now to act (after any change); stop the
        others. Called before the views go out (they carry the timer)."""
        self.stop(table)
        state = table.state
        if table.move_seconds is not None:  # a correspondence table: its row keeps the time
            seats = awaited(table)
            if seats and table.deadline is not None:
                table.turn = {"seats": seats, "seconds": table.move_seconds,
                              "deadline": int(table.deadline * 1000)}
            return
        if table.turn_seconds <= 0 or table.status != "playing" or state is None \
                or table.reaction is not None or spec(table.game.id).solitaire:
            return
        seats = [s for s in state.to_act if table.seats[s].kind == "person"
                 and s not in table.standins]
        if not seats:
            return
        turn = table.turn = {"seats": seats, "seconds": table.turn_seconds,
                             "deadline": int((self.now() + table.turn_seconds) * 1000)}
        table.turn_timer = self.call_later(table.turn_seconds, lambda: self._over(table, turn))

    def stop(self, table: Table) -> None:
        if table.turn_timer is not None:
            table.turn_timer.cancel()
        table.turn_timer = None
        table.turn = None

    def _over(self, table: Table, turn: JsonDict) -> None:
        if table.turn is not turn:
            return
        table.turn_timer = None
        table.turn = None
        state = table.state
        for seat in turn["seats"]:
            if state is not None and seat in state.to_act:
                self.expired(table, seat)
