"""Spite & Malice's spec: every part of the game and its settings (see
:mod:`parlour.registry`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from parlour.games.spite_and_malice.bots import BOTS, SEARCH
from parlour.games.spite_and_malice.rules import GAME, say_action
from parlour.games.spite_and_malice.stats import STATS
from parlour.message import N_, Term
from parlour.registry import GameSpec, Preset, PuzzleKit, Traits

if TYPE_CHECKING:
    from parlour.rl.encoding.base import Encoder
    from parlour.terminal import TableUI

#: The ranks as the notation writes them ("needs an A").
RANK_CODES = (Term("rank-code", "A"), Term("rank-code", "2"), Term("rank-code", "3"),
              Term("rank-code", "4"), Term("rank-code", "5"), Term("rank-code", "6"),
              Term("rank-code", "7"), Term("rank-code", "8"), Term("rank-code", "9"),
              Term("rank-code", "10"), Term("rank-code", "J"), Term("rank-code", "Q"),
              Term("rank-code", "K"))


def terminal() -> type[TableUI]:
    from parlour.games.spite_and_malice.terminal import UI
    return UI


def encoder() -> type[Encoder]:
    from parlour.games.spite_and_malice.encoding import SpiteAndMaliceEncoder
    return SpiteAndMaliceEncoder


def figures() -> Mapping[str, Callable[[], str]]:
    from parlour.games.spite_and_malice.figures import DRAWINGS
    return DRAWINGS


def puzzle_kit() -> PuzzleKit:
    from parlour.games.spite_and_malice.puzzles import KIT
    return KIT


def build() -> GameSpec:
    return GameSpec(
        GAME, terminal, Traits(), bots=BOTS, search=SEARCH, say_action=say_action,
        short_match={"payoff_size": 3, "target": 3, "max_rounds": 2, "max_turns": 30},
        stats=STATS, one_deal={"max_rounds": 1}, daily_seats=2, turn_seconds=120,
        # ismcts:easy's 48 playouts were normal's when they were measured (docs/bots.md)
        bot_elo={"random": -800.0, "rule": 0.0, "ismcts:easy": 241.0},
        # The first round of a match to 50 moves the match by little a decision (4 rounds
        # of 5-card payoff piles, 63 to 84 decisions a level, at 16, 48 and 160 playouts, the
        # levels before they moved up one): 160's largest loss 0.014, 16's 0.021, the rule
        # bot's 0.013 (its playouts follow the rule bot, so the reviewer leans its way). The
        # steps sit above every level's largest loss.
        review_steps=(0.025, 0.05, 0.10),
        tagline=N_("Race to empty your payoff pile onto the shared piles, ace up to queen."),
        bot_help={"rule": N_("Plans all the builds of its turn together, to empty its "
                               "payoff pile first."),
                  # Measured in duplicate, hard beats normal here (docs/bots.md), as the
                  # lobby's general words for hard no longer promise.
                  "ismcts:hard": N_("Plays out many possible games before each move: the "
                                    "strongest, and the slowest.")},
        presets=(Preset("classic", 30),
                 Preset("quick", 10, {"payoff_size": 10, "target": 20})),
        vocabulary=(Term("game", "Spite & Malice"), *RANK_CODES), figures=figures, encoder=encoder,
        puzzle_kit=puzzle_kit)
