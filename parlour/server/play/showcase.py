"""What the lobby shows of each game besides its rules: one line on what it is, and its
presets (a classic game and, where the game has one, a quicker one), each with how long it
takes, for the game's tile and the new-table panel: each game's spec names them
(``tagline``, ``presets``).

A preset is a set of the game's own options (checked by the tests against each game), so
choosing one in the lobby is the same as setting those options by hand. The lines and the
preset names are translated where they are shown (the page: ``t()``).
"""

from __future__ import annotations

from parlour.engine import JsonDict
from parlour.registry import spec


def showcase_json(game_id: str) -> JsonDict:
    """The tile's line and the presets of ``game_id``, for the lobby (``/api/games``)."""
    found = spec(game_id)
    return {"tagline": found.tagline,
            "presets": [{"id": p.id, "minutes": p.minutes, "options": dict(p.options)}
                        for p in found.presets]}
