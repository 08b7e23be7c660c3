"""Cangkul's spec: every part of the game and its settings (see :mod:`parlour.registry`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from parlour.games.cangkul.bots import BOTS, SEARCH
from parlour.games.cangkul.rules import GAME, say_action
from parlour.games.cangkul.stats import STATS
from parlour.message import N_, Term
from parlour.registry import GameSpec, Preset, PuzzleKit

if TYPE_CHECKING:
    from parlour.rl.encoding.base import Encoder
    from parlour.terminal import TableUI


def terminal() -> type[TableUI]:
    from parlour.games.cangkul.terminal import UI
    return UI


def encoder() -> type[Encoder]:
    from parlour.games.cangkul.encoding import CangkulEncoder
    return CangkulEncoder


def figures() -> Mapping[str, Callable[[], str]]:
    from parlour.games.cangkul.figures import DRAWINGS
    return DRAWINGS


def puzzle_kit() -> PuzzleKit:
    from parlour.games.cangkul.puzzles import KIT
    return KIT


def build() -> GameSpec:
    return GameSpec(
        GAME, terminal, bots=BOTS, search=SEARCH, say_action=say_action,
        short_match={"losses": 1, "hand_size": 5}, stats=STATS, one_deal={"losses": 1},
        daily_seats=4, turn_seconds=45,
        # Two seats, docs/bots.md: rule +346 over random in 100 matches (seed 31), easy
        # ISMCTS +23 [-1, +47] over rule in 800 one-deal matches (bench/levels.py).
        bot_elo={"random": -346.0, "rule": 0.0, "ismcts:easy": 23.0},
        tagline=N_("Follow suit or dig in the stock: the first out wins, the last one "
                   "holding cards loses."),
        bot_help={"rule": N_("Leads the suits the others have had to dig for, keeps the "
                             "lead with sure winners and sheds its low cards.")},
        presets=(Preset("classic", 20), Preset("quick", 6, {"losses": 1})),
        vocabulary=(Term("game", "Cangkul"),), figures=figures, encoder=encoder,
        puzzle_kit=puzzle_kit)
