"""What the lobby shows of each game besides its rules: one line on what it is, and its
presets (a classic game and, where the game has one, a quicker one), each with how long it
takes, for the game's tile and the new-table panel.

A preset is a set of the game's own options (checked by the tests against each game), so
choosing one in the lobby is the same as setting those options by hand. The lines and the
preset names are translated where they are shown (the page: ``t()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.engine import JsonDict
from parlour.message import N_


@dataclass(frozen=True)
class Preset:
    id: str  # classic | quick (the page names them)
    minutes: int  # how long a game usually takes, bots at normal speed
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Showcase:
    tagline: str  # one line on what the game is, for a newcomer
    presets: tuple[Preset, ...]


SHOWCASES: dict[str, Showcase] = {
    "spades": Showcase(
        N_("Partners bid, then take tricks: spades are always trumps."),
        (Preset("classic", 30), Preset("quick", 15, {"target": 300}))),
    "spite-and-malice": Showcase(
        N_("Race to empty your payoff pile onto the shared piles, ace up to queen."),
        (Preset("classic", 30), Preset("quick", 10, {"payoff_size": 10, "target": 20}))),
    "hit-the-deck": Showcase(
        N_("Match colour or number to shed your hand, and slap the deck first."),
        (Preset("classic", 20), Preset("quick", 10, {"target": 50}))),
    "clockwork-spades": Showcase(
        N_("A clock of spades plays itself: choose well when it stops for you."),
        (Preset("classic", 5),)),
    "foursquare": Showcase(
        N_("Solitaire: lay cards on a four-by-four grid and turn every pile face up."),
        (Preset("classic", 5),)),
}

DEFAULT = Showcase("", (Preset("classic", 15),))


def showcase_json(game_id: str) -> JsonDict:
    """The tile's line and the presets of ``game_id``, for the lobby (``/api/games``)."""
    found = SHOWCASES.get(game_id, DEFAULT)
    return {"tagline": found.tagline,
            "presets": [{"id": p.id, "minutes": p.minutes, "options": dict(p.options)}
                        for p in found.presets]}
