"""What a bot is given, and the simplest bot.

A bot never receives the true state. It gets an :class:`Observation`: the seat's view, its
legal actions, the public history, and a way to *sample* full states consistent with what
the seat has seen. The sampler holds a determinization made before the observation was
handed over (hidden cards already redealt at random), so nothing reachable from an
observation, even by introspection, holds a card the seat has not seen.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, ClassVar

from parlour.engine import Action, Game, JsonDict, Seat, State


@dataclass(frozen=True)
class Observation:
    """Everything one seat knows when it must act."""

    game: Game
    seat: Seat
    view: JsonDict  # empty for bots that do not read views (needs_view = False)
    legal: tuple[Action, ...]
    history: tuple[tuple[Seat, Action], ...]
    _sampler: State | None = field(default=None, repr=False)

    def sample(self, rng: random.Random) -> State:
        """A full state the seat cannot tell from the real one (hidden cards at random)."""
        if self._sampler is None:
            raise RuntimeError("this observation was made without sampling: set "
                               "needs_sample = True on the bot class")
        return self._sampler.determinize(self.seat, rng)


def observe(state: State, seat: Seat, rng: random.Random, *, view: bool = True,
            sample: bool = False) -> Observation:
    """The observation of ``seat``; with ``sample`` it can also draw determinizations."""
    sampler = state.determinize(seat, rng) if sample else None
    return Observation(state.game, seat, state.view(seat) if view else {},
                       tuple(state.legal_actions(seat)), tuple(state.history) if view else (),
                       sampler)


@dataclass(frozen=True)
class OpenObservation(Observation):
    """An observation that shows everything: its ``sample`` is the true state itself (a
    copy), every hand and the future deals included. Only for a yardstick kind whose
    ``sees_everything`` is set (Spades' ``open-hands``), and only the arena makes one
    (:func:`observe_open`); no table does."""

    def sample(self, rng: random.Random) -> State:
        """The true state (a copy): nothing is redealt."""
        assert self._sampler is not None
        return self._sampler.clone()


def observe_open(state: State, seat: Seat) -> OpenObservation:
    """The observation of ``seat`` shown every card (:class:`OpenObservation`)."""
    return OpenObservation(state.game, seat, state.view(seat), tuple(state.legal_actions(seat)),
                           tuple(state.history), state.clone())


def observe_for(bot: Bot, state: State, seat: Seat, rng: random.Random) -> Observation:
    """Exactly what ``bot`` asks to be shown."""
    return observe(state, seat, rng, view=bot.needs_view, sample=bot.needs_sample)


def stopwatch(seconds: float | None) -> Callable[[], bool]:
    """"Out of time?" for one decision that may take ``seconds`` of wall-clock time. With
    no cap (``None``) the answer is always no and the clock is never read: the decision then
    depends on the seed and the budget alone, the same on any machine under any load."""
    if seconds is None:
        return _never
    deadline = time.perf_counter() + seconds
    return lambda: time.perf_counter() > deadline


def _never() -> bool:
    return False


class Bot:
    """A player. Subclasses set ``kind`` and implement :meth:`act`.

    A bot stops thinking on its budget (iterations, playouts, boards), never on the clock,
    so a seeded bot plays the same moves on any machine. Whoever runs it may cap its
    thinking time by setting :attr:`time_cap` (the web server does, for its tables' pace);
    a searching bot then also stops when a decision has taken that long."""

    kind: ClassVar[str] = "bot"
    #: Whether :meth:`act` reads ``obs.view`` and ``obs.history`` (views cost time to build).
    needs_view: ClassVar[bool] = True
    #: Whether :meth:`act` calls ``obs.sample`` (making one costs a determinization).
    needs_sample: ClassVar[bool] = False
    #: The levels the kind takes (``kind:level``), if its constructor takes a ``level``.
    levels: ClassVar[Collection[str]] = ()
    #: Whether the kind plays a seat at a table (the lobby offers it); a yardstick for the
    #: analyses, such as a bot shown the hidden cards, does not.
    at_tables: ClassVar[bool] = True
    #: Whether the kind is a yardstick shown every card (:class:`OpenObservation`): it is
    #: made with ``shown=True`` and observed by :func:`observe_open`, by the arena alone.
    sees_everything: ClassVar[bool] = False
    #: Seconds one decision may take at most, or None (the default): the budget alone.
    time_cap: float | None = None

    def __init__(self, game: Game, seat: Seat, seed: int, **params: Any) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        if params:
            raise TypeError(f"{self.kind} bot takes no parameter {next(iter(params))!r}")

    def act(self, obs: Observation) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat}>"


class RandomBot(Bot):
    """Uniform over the legal actions."""

    kind = "random"
    needs_view = False

    def act(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal)
