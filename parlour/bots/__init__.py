"""Bots for every game, found by kind.

``random`` and ``ismcts`` play every game. Per-game kinds live in
``parlour.bots.<game module>`` as a ``BOTS`` dict (``{"rule": SpadesRuleBot}``);
:func:`make_bot` finds them by game id.
"""

from __future__ import annotations

import importlib
from typing import Any

from parlour.bots.base import Bot, Observation, RandomBot, observe, observe_for
from parlour.bots.ismcts import ISMCTSBot
from parlour.engine import Game, OptionError, Seat
from parlour.games import module_name

__all__ = ["Bot", "Observation", "RandomBot", "bot_kinds", "make_bot", "observe", "observe_for"]

GENERIC: dict[str, type[Bot]] = {"random": RandomBot, "ismcts": ISMCTSBot}


def _game_bots(game_id: str) -> dict[str, type[Bot]]:
    try:
        module = importlib.import_module(f"{__name__}.{module_name(game_id)}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{module_name(game_id)}":
            raise
        return {}
    return dict(getattr(module, "BOTS", {}))


def bot_kinds(game_id: str) -> dict[str, type[Bot]]:
    """Every bot kind that plays ``game_id``: the generic ones, then the game's own."""
    return GENERIC | _game_bots(game_id)


def make_bot(game: Game, kind: str, seat: Seat, seed: int, **params: Any) -> Bot:
    """A bot of ``kind`` for ``seat``; a clear error naming the kinds there are."""
    kinds = bot_kinds(game.id)
    name, _, level = kind.strip().lower().partition(":")
    if name not in kinds:
        raise OptionError(f"no {kind!r} bot for {game.id}: choose from {', '.join(kinds)}")
    if level:
        params = {"level": level, **params}
    return kinds[name](game, seat, seed, **params)
