"""Clockwork Spades' encoding, seen from the seat (index 0 me, 1 my opponent).

Clock positions 1..12 are indices 0..11 (Ace 1 .. Queen 12); cards are numbered as
:mod:`parlour.cards` numbers them (``suit * 13 + rank``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.cards import card_text, suit_of
from parlour.engine import JsonDict
from parlour.games.clockwork_spades.rules import PHASE_NAMES, position_of
from parlour.rl.encoding.base import Encoder, Field, Writer

CARD = {card_text(c): c for c in range(52)}
POSITION = {card_text(c): position_of(c) for c in range(52)}


class ClockworkSpadesEncoder(Encoder):
    game_id = "clockwork-spades"
    one_deal = True

    def fields(self) -> list[Field]:
        return [
            Field("spade", 12, "per position, its spade is still on the clock"),
            Field("due", 12, "per position, it is due this turn"),
            Field("stacked", 12, "per position, cards played onto it / 3", 0.0, 2.0),
            Field("pointer", 12, "one-hot position the last turn ended on"),
            Field("hand", 52, "cards in my hand"),
            Field("hand_sizes", 2, "cards in hand, me then opponent, / 3"),
            Field("penalty", 2 * 12,
                  "per player (me, opponent), the positions of the spades it has taken"),
            Field("kings", 2 * 4, "per player, the suits of the Kings it holds"),
            Field("discard", 52, "cards in the discard pile"),
            Field("stock", 1, "cards in the stock / 39"),
            Field("king_of_spades_in_stock", 1, "the King of Spades still lies under the stock"),
            Field("phase", len(PHASE_NAMES), "one-hot: take, over"),
            Field("to_act", 2, "one-hot: I act, my opponent acts"),
        ]

    def encode(self, view: JsonDict) -> np.ndarray:
        me = view["seat"]
        w = Writer(self.layout)
        for i, spot in enumerate(view["clock"]):
            if spot["spade"] is not None:
                w.one("spade", i)
            if spot["due"]:
                w.one("due", i)
            w.scalar("stacked", len(spot["cards"]) / 3, i)
        if 1 <= view["pointer"] <= 12:
            w.one("pointer", view["pointer"] - 1)
        w.many("hand", (CARD[t] for t in view["hand"]))
        for i, seat in enumerate((me, 1 - me)):
            w.scalar("hand_sizes", view["hand_sizes"][seat] / 3, i)
            for text in view["penalty"][seat]:
                w.one("penalty", 12 * i + POSITION[text] - 1)
            for text in view["kings"][seat]:
                w.one("kings", 4 * i + suit_of(CARD[text]))
        w.many("discard", (CARD[t] for t in view["discard"]))
        w.scalar("stock", view["stock_size"] / 39)
        if view["king_of_spades_in_stock"]:
            w.one("king_of_spades_in_stock", 0)
        w.one("phase", PHASE_NAMES.index(view["phase"]))
        for seat in view["to_act"]:
            w.one("to_act", 0 if seat == me else 1)
        return w.done()

    def points(self, state: Any) -> list[float]:
        raise NotImplementedError("Clockwork Spades is one deal: its deal reward is the match's")


