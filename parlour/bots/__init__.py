"""Bots for every game, found by kind.

``random`` and ``ismcts`` play every game. A game's own kinds are listed in its spec
(:func:`parlour.registry.spec`, ``bots``: ``{"rule": SpadesRuleBot}``); :func:`make_bot`
finds them by game id.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import Bot, Observation, RandomBot, observe, observe_for
from parlour.engine import Action, Code, Game, OptionError, Seat, State
from parlour.message import N_
from parlour.native import extend
from parlour.registry import spec

extend(__path__, "bots")  # the compiled searches (search.py), when the compiled build is in use

from parlour.bots.ismcts import ISMCTSBot  # noqa: E402  (after the path is set)

__all__ = ["Bot", "Hint", "Observation", "RandomBot", "bot_kinds", "hint", "hint_bot", "make_bot",
           "observe", "observe_for"]

GENERIC: dict[str, type[Bot]] = {"random": RandomBot, "ismcts": ISMCTSBot}


def bot_kinds(game_id: str) -> dict[str, type[Bot]]:
    """Every bot kind that plays ``game_id``: the generic ones, then the game's own."""
    return GENERIC | dict(spec(game_id).bots)


def make_bot(game: Game, kind: str, seat: Seat, seed: int, **params: Any) -> Bot:
    """A bot of ``kind`` for ``seat``; a clear error naming the kinds there are."""
    kinds = bot_kinds(game.id)
    name, _, level = kind.strip().lower().partition(":")
    if name not in kinds:
        raise OptionError("no {kind} bot for {game}: choose from {known}", kind=Code(repr(kind)),
                          game=Code(game.id), known=Code(", ".join(kinds)))
    if level:
        params = {"level": level, **params}
    return kinds[name](game, seat, seed, **params)


@dataclass(frozen=True)
class Hint:
    """The strong bot's advice for one seat: its choice and a value per legal action."""

    action: Action
    text: str
    values: dict[str, float]  # action text -> value, best first
    unit: str  # what the values measure

    def describe(self, top: int = 5) -> str:
        best = ", ".join(f"{t} {_fmt(v, self.unit)}" for t, v in list(self.values.items())[:top])
        return f"{self.text} ({self.unit}: {best})"


def _fmt(value: float, unit: str) -> str:
    return f"{value:.0%}" if "chance" in unit else f"{value:g}"


def hint_bot(game_id: str) -> str | None:
    """The bot kind a game names for hints (its spec's ``hint_bot``), or None if it names
    none (the web parlour offers hints only then; :func:`hint` asks ismcts)."""
    return spec(game_id).hint_bot


def hint(source: State | Observation, seat: Seat | None = None, *, level: str = "normal",
         seed: int = 0, time_cap: float | None = None) -> Hint:
    """Ask the strong bot what ``seat`` should do. ``source`` is an observation, or a state
    from which the seat's observation is made (the bot still sees only that). ``time_cap``
    (seconds, see :attr:`Bot.time_cap`) caps its thinking; by default its budget alone
    does, so the same seed gives the same hint on any machine."""
    if isinstance(source, Observation):
        obs = source
    else:
        if seat is None:
            if len(source.to_act) != 1:
                raise ValueError("say which seat wants a hint")
            seat = source.to_act[0]
        obs = observe(source, seat, random.Random(seed), sample=True)
    if not obs.legal:
        raise ValueError(f"seat {obs.seat} has nothing to do now")
    kind = hint_bot(obs.game.id) or "ismcts"
    bot = make_bot(obs.game, f"{kind}:{level}", obs.seat, seed)
    bot.time_cap = time_cap
    analyse = getattr(bot, "analyse", None)
    if analyse is None:
        raise ValueError(f"the {bot.kind} bot gives no hints")
    result = analyse(obs)
    if isinstance(result, tuple):
        values, unit = result
        order = sorted(obs.legal, key=lambda a: -values.get(a, -math.inf))
    else:  # a solver's decision: its action first, then the rest by their chance
        values, unit = result.chances, N_("estimated chance to win")
        order = sorted(obs.legal, key=lambda a: (a != result.action, -values.get(a, -math.inf)))
    text = obs.game.action_text
    return Hint(order[0], text(order[0]),
                {text(a): round(values[a], 4) for a in order if a in values}, unit)
