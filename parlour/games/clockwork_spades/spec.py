"""Clockwork Spades' spec: every part of the game and its settings (see
:mod:`parlour.registry`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from parlour.games.clockwork_spades.bots import BOTS
from parlour.games.clockwork_spades.rules import GAME, describe_event, narrate_event, say_action
from parlour.games.clockwork_spades.stats import STATS
from parlour.message import N_, Term
from parlour.registry import GameSpec, Preset, PuzzleKit, Traits

if TYPE_CHECKING:
    from parlour.rl.encoding.base import Encoder
    from parlour.terminal import TableUI


def terminal() -> type[TableUI]:
    from parlour.games.clockwork_spades.terminal import UI
    return UI


def encoder() -> type[Encoder]:
    from parlour.games.clockwork_spades.encoding import ClockworkSpadesEncoder
    return ClockworkSpadesEncoder


def figures() -> Mapping[str, Callable[[], str]]:
    from parlour.games.clockwork_spades.figures import DRAWINGS
    return DRAWINGS


def puzzle_kit() -> PuzzleKit:
    from parlour.games.clockwork_spades.puzzles import KIT
    return KIT


def build() -> GameSpec:
    return GameSpec(
        GAME, terminal, Traits(), bots=BOTS, describe_event=describe_event,
        narrate_event=narrate_event, say_action=say_action, stats=STATS, daily_seats=2,
        turn_seconds=60, bot_elo={"random": 28.0, "rule": 0.0, "ismcts:normal": 12.0},
        # Spades' steps: its only choice, which due spade to take, lost at most 0.020
        # (rule) and 0.004 (hard) in 4 deals, 5 to 10 decisions a level (docs/review.md).
        review_steps=(0.03, 0.06, 0.10),
        tagline=N_("A clock of spades plays itself: choose well when it stops for you."),
        bot_help={"rule": N_("When it must take a spade, takes the one its opponent "
                               "most likely needs and it needs least.")},
        presets=(Preset("classic", 5),), vocabulary=(Term("game", "Clockwork Spades"),),
        figures=figures, encoder=encoder,
        puzzle_kit=puzzle_kit)
