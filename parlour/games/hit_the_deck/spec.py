"""Hit the Deck's spec: every part of the game and its settings (see
:mod:`parlour.registry`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from parlour.games.hit_the_deck.bots import BOTS, SEARCH
from parlour.games.hit_the_deck.rules import GAME, build_deck, say_action
from parlour.games.hit_the_deck.stats import STATS
from parlour.message import N_, Term
from parlour.registry import GameSpec, Preset, PuzzleKit, Traits

if TYPE_CHECKING:
    from parlour.rl.encoding.base import Encoder
    from parlour.terminal import TableUI


def terminal() -> type[TableUI]:
    from parlour.games.hit_the_deck.terminal import UI
    return UI


def encoder() -> type[Encoder]:
    from parlour.games.hit_the_deck.encoding import HitTheDeckEncoder
    return HitTheDeckEncoder


def howto_values(options: Mapping[str, Any]) -> dict[str, Any]:
    """The how-to page's deck size, from the options."""
    return {"deck_size": len(build_deck(dict(options)))}


def figures() -> Mapping[str, Callable[[], str]]:
    from parlour.games.hit_the_deck.figures import DRAWINGS
    return DRAWINGS


def puzzle_kit() -> PuzzleKit:
    from parlour.games.hit_the_deck.puzzles import KIT
    return KIT


def build() -> GameSpec:
    return GameSpec(
        GAME, terminal, Traits(timed_phases=True), bots=BOTS, search=SEARCH,
        say_action=say_action, short_match={"target": 1}, stats=STATS,
        one_deal={"max_rounds": 1}, daily_seats=3, turn_seconds=45,
        bot_elo={"random": -798.0, "rule": 0.0, "ismcts:normal": 182.0},
        # Rounds to 100 spread the match over many small choices (6 deals, about 30
        # decisions a level): hard's largest loss 0.001, easy's 0.013, normal's 0.011, the
        # rule bot's 95th percentile 0.042; lichess's 0.05 would mark nothing at all.
        review_steps=(0.02, 0.04, 0.08),
        tagline=N_("Match colour or number to shed your hand, and slap the deck first."),
        bot_help={"rule": N_("Sheds high cards first, keeps Hit the Deck cards for later "
                               "and blocks a player about to go out.")},
        presets=(Preset("classic", 20), Preset("quick", 10, {"target": 50})),
        vocabulary=(Term("game", "Hit the Deck"), Term("colour", "red"),
                    Term("colour", "yellow"), Term("colour", "green"), Term("colour", "blue"),
                    Term("reaction", "slap")),
        figures=figures, encoder=encoder, howto_values=howto_values,
        puzzle_kit=puzzle_kit)
