"""Foursquare's spec: every part of the game and its settings (see :mod:`parlour.registry`).
A solitaire: no turn timer, no bots to rate against (its players' figures are the win rate
and mean score of their recent deals), and the review keeps lichess's steps (its solver's
losses are near 0 or near 1, docs/review.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from parlour.games.foursquare.bots import BOTS
from parlour.games.foursquare.rules import GAME, describe_event, narrate_event, say_action
from parlour.games.foursquare.stats import STATS
from parlour.message import N_, Term
from parlour.registry import GameSpec, Preset, PuzzleKit, Study, Traits

if TYPE_CHECKING:
    from parlour.rl.encoding.base import Encoder
    from parlour.terminal import TableUI


def terminal() -> type[TableUI]:
    from parlour.games.foursquare.terminal import UI
    return UI


def encoder() -> type[Encoder]:
    from parlour.games.foursquare.encoding import FoursquareEncoder
    return FoursquareEncoder


def analysis() -> Study:
    from parlour.games.foursquare import analysis
    return analysis


def figures() -> Mapping[str, Callable[[], str]]:
    from parlour.games.foursquare.figures import DRAWINGS
    return DRAWINGS


def puzzle_kit() -> PuzzleKit:
    from parlour.games.foursquare.puzzles import KIT
    return KIT


def build() -> GameSpec:
    return GameSpec(
        GAME, terminal, Traits(solitaire=True, rated_by="win-rate", numbered_deals=True),
        bots=BOTS, hint_bot="solver", describe_event=describe_event,
        narrate_event=narrate_event, say_action=say_action, analysis=analysis, stats=STATS,
        daily_seats=1,
        tagline=N_("Solitaire: lay cards on a four-by-four grid and turn every pile face up."),
        bot_help={
            "rule": N_("Wins when it can, otherwise keeps as few tops face down as it can."),
            "solver:fast": N_("Looks a few cards ahead into the unknown stock: quick."),
            "solver:strong": N_("Looks far ahead into the unknown stock: the strongest."),
            "solver": N_("Looks ahead into the unknown stock.")},
        presets=(Preset("classic", 5),), vocabulary=(Term("game", "Foursquare"),),
        figures=figures, encoder=encoder,
        puzzle_kit=puzzle_kit)
