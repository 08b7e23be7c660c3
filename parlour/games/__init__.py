"""The games: one module ``parlour.games.<name>`` of rules per game, each exposing ``GAME``,
a :class:`~parlour.engine.Game`. A game module imports nothing above the engine.

The games Parlour plays, and everything built on each (bots, tables, narration), are
registered in :mod:`parlour.registry`; :func:`get_game` and :func:`game_ids` are its lookups,
here for the callers that want a game alone.
"""

from __future__ import annotations

from parlour.native import extend

extend(__path__, "games")  # the compiled rules, when the compiled build is in use

from parlour.registry import game_ids, get_game  # noqa: E402  (after the path is set)

__all__ = ["game_ids", "get_game"]
