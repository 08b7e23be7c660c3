"""Studies of one game beyond win rates between bots, run by ``parlour analyse <game>``.

A game with a study names it in its spec (``analysis``): a module exposing
``analyse(games, seed, jobs, progress, **settings) -> dict``, ``report(summary, console)``
and ``draw(summary, path)``; see :mod:`parlour.games.foursquare.analysis`.
"""

from __future__ import annotations

from parlour.engine import Code, OptionError, Term
from parlour.registry import Study, game_ids, spec


def analysis_for(game_id: str) -> Study:
    """The study of ``game_id``; a clear error naming the games that have one."""
    found = spec(game_id)
    if found.analysis is not None:
        return found.analysis()
    have = [g for g in game_ids() if spec(g).analysis is not None]
    raise OptionError("there is no analysis of {game} (analyses: {known})",
                      game=Term("game", found.game.name), known=Code(", ".join(have)))
