"""Spades' spec: every part of the game and its settings (see :mod:`parlour.registry`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from parlour.games.spades.bots import BOTS, SEARCH
from parlour.games.spades.pimc import OpenHandsBot, PimcBot
from parlour.games.spades.rules import GAME, say_action, seat_view
from parlour.games.spades.stats import STATS
from parlour.message import N_, Term
from parlour.registry import GameSpec, Preset, PuzzleKit, Traits

if TYPE_CHECKING:
    from parlour.rl.encoding.base import Encoder
    from parlour.terminal import TableUI


def terminal() -> type[TableUI]:
    from parlour.games.spades.terminal import UI
    return UI


def encoder() -> type[Encoder]:
    from parlour.games.spades.encoding import SpadesEncoder
    return SpadesEncoder


def figures() -> Mapping[str, Callable[[], str]]:
    from parlour.games.spades.figures import DRAWINGS
    return DRAWINGS


def puzzle_kit() -> PuzzleKit:
    from parlour.games.spades.puzzles import KIT
    return KIT


def build() -> GameSpec:
    return GameSpec(
        GAME, terminal, Traits(partnerships=((0, 2), (1, 3))),
        bots={**BOTS, "pimc": PimcBot, "open-hands": OpenHandsBot}, search=SEARCH,
        say_action=say_action, short_match={"max_deals": 2}, stats=STATS,
        one_deal={"max_deals": 1}, daily_seats=4, turn_seconds=60,
        bot_elo={"random": -800.0, "rule": 0.0, "ismcts:easy": 463.0},
        # 4 deals, about 45 decisions a level: hard's largest loss 0.012, normal's 0.041;
        # the rule bot's 90th percentile 0.041, its 95th 0.13 (docs/review.md).
        review_steps=(0.03, 0.06, 0.10),
        tagline=N_("Partners bid, then take tricks: spades are always trumps."),
        bot_help={"rule": N_("Counts its sure tricks to bid, plays to make its team's contract, "
                               "covers a partner's nil and avoids bags.")},
        presets=(Preset("classic", 30), Preset("quick", 15, {"target": 300})),
        vocabulary=(Term("game", "Spades"),), figures=figures, encoder=encoder,
        puzzle_kit=puzzle_kit, seat_view=seat_view)
