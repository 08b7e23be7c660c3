"""What the shared tests know of each game comes from the game's folder: its
``checks.py`` (digests of its seeded play, short options, what its web table shows). A game
whose folder lacks one fails with the instruction to add it, never a KeyError."""

from __future__ import annotations

import importlib
from typing import Any

from parlour.registry import folder_name

#: Each piece of a game's ``checks.py`` and what it is, for the instruction.
PIECES = {
    "SAME_RESULTS": "recorded results (the digests of its seeded play: run "
                    "python tests/same_results.py and copy its game's entry)",
    "RL_SHORT": "short options for the learning environments' tests",
    "BROWSER_FIT": "browser fit table (what its web table shows, as tests/test_browser_fit.py's "
                   "Table)",
    "BROWSER_I18N": "browser language table (a quick match's options, its rule bots, and what "
                    "shows when the seat is to act)",
}


def missing(game_id: str) -> list[str]:
    """An instruction per piece the game's ``checks.py`` lacks."""
    where = f"parlour/games/{folder_name(game_id)}/checks.py"
    try:
        module = importlib.import_module(f"parlour.games.{folder_name(game_id)}.checks")
    except ModuleNotFoundError:
        module = None
    return [f"{game_id} has no {what}: set {name} in {where}"
            for name, what in PIECES.items() if not hasattr(module, name)]


def piece(game_id: str, name: str) -> Any:
    """One piece of the game's ``checks.py``; an AssertionError naming what to add if it
    lacks it."""
    lacking = [m for m in missing(game_id) if f"set {name} " in m]
    assert not lacking, lacking[0]
    module = importlib.import_module(f"parlour.games.{folder_name(game_id)}.checks")
    return getattr(module, name)


class Pieces:
    """Every game's piece ``name``, looked up by game id as a mapping is (``SHORT[game]``),
    each from the game's own checks.py when asked for."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getitem__(self, game_id: str) -> Any:
        return piece(game_id, self.name)
