"""A timed phase in progress at a table (the slap of Hit the Deck): what the table holds of
it, apart from the clock that times it (:mod:`parlour.server.play.clock`), so that a table need
not know its clock."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from parlour.engine import JsonDict, Reaction


@dataclass
class OpenReaction:
    """A timed phase in progress at a table (see :class:`parlour.engine.Reaction`)."""

    reaction: Reaction
    id: str  # sent with the views of the phase; a react must name it
    slowdown: float = 1.0  # the server's setting `reaction_slowdown`
    opened: float | None = None  # loop time when the views opening it went out
    timer: asyncio.TimerHandle | None = None
    closing: asyncio.Task[None] | None = None

    @property
    def seconds(self) -> float:
        """How long the window stays open on the wall clock."""
        return self.reaction.window_ms / 1000 * self.slowdown

    def answer_ms(self, elapsed: float) -> float:
        """The time of an answer ``elapsed`` wall seconds after the signal, in the phase's
        milliseconds (within its window)."""
        return min(max(0.0, elapsed * 1000.0 / self.slowdown), float(self.reaction.window_ms))

    def due(self, action: int) -> float:
        """The loop time at which an answer of ``action``'s time is due (a bot's)."""
        assert self.opened is not None
        return self.opened + self.reaction.ms(action) / 1000 * self.slowdown

    def to_json(self, now: float | None = None) -> JsonDict:
        """The phase as views carry it; ``now`` (loop time), after the signal, adds
        ``remaining_ms``: how long the window stays open still, on the wall clock."""
        out: JsonDict = {"phase": self.id, "name": self.reaction.name,
                         "window_ms": round(self.seconds * 1000)}
        if now is not None and self.opened is not None:
            out["remaining_ms"] = max(0, round((self.opened + self.seconds - now) * 1000))
        return out

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.closing is not None:
            self.closing.cancel()
