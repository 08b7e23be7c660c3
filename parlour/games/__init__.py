"""The games. Each module ``parlour.games.<name>`` exposes ``GAME``, a :class:`Game`.

Game ids use hyphens (``spite-and-malice``); module names use underscores.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from parlour.engine import Game, OptionError

#: The order games are listed in menus; games found but not listed here follow.
PREFERRED_ORDER = ("spades", "spite-and-malice", "hit-the-deck", "clockwork-spades",
                   "foursquare")


def module_name(game_id: str) -> str:
    return game_id.replace("-", "_")


@cache
def game_ids() -> tuple[str, ...]:
    """Ids of every game installed, in menu order."""
    found = {m.name.replace("_", "-") for m in pkgutil.iter_modules(__path__)
             if not m.name.startswith("_")}
    listed = [g for g in PREFERRED_ORDER if g in found]
    return tuple(listed + sorted(found - set(listed)))


def get_game(game_id: str) -> Game:
    """The game with this id (``spades``); a clear error naming the known ids otherwise."""
    gid = game_id.strip().lower().replace("_", "-")
    if gid not in game_ids():
        raise OptionError(f"unknown game {game_id!r}: expected one of {', '.join(game_ids())}")
    return importlib.import_module(f"{__name__}.{module_name(gid)}").GAME
