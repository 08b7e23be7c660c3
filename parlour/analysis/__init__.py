"""Studies of one game beyond win rates between bots, run by ``parlour analyse <game>``.

A game with a study has a module ``parlour.analysis.<game module>`` exposing
``analyse(games, seed, jobs, progress, **settings) -> dict`` and ``report(summary, console)``;
see :mod:`parlour.analysis.foursquare`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from parlour.engine import OptionError
from parlour.games import game_ids, get_game, module_name


def analysis_for(game_id: str) -> ModuleType:
    """The study module of ``game_id``; a clear error naming the games that have one."""
    game = get_game(game_id)
    try:
        return importlib.import_module(f"{__name__}.{module_name(game.id)}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{module_name(game.id)}":
            raise
    have = [g for g in game_ids() if _has(g)]
    raise OptionError(f"there is no analysis of {game.name} (analyses: {', '.join(have)})")


def _has(game_id: str) -> bool:
    try:
        importlib.import_module(f"{__name__}.{module_name(game_id)}")
    except ModuleNotFoundError:
        return False
    return True
