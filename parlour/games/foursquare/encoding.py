"""Foursquare's encoding: the 7 x 7 frame as 16 planes, the card in hand, what the stock holds.

Cells are numbered as the game numbers them (``row * 7 + column``, ``a1`` = 0, ``d4`` = 24),
so plane ``p`` of the grid is ``obs[49 * p : 49 * (p + 1)]`` and reshapes to 7 x 7.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.cards import card_text
from parlour.engine import JsonDict
from parlour.games.foursquare.rules import CELLS, DECK, HEIGHT, NUM_CARDS, VALUE, parse_cell
from parlour.rl.encoding.base import Encoder, Field, Writer

_CARD_VALUE = {card_text(c): VALUE[c] for c in DECK}
#: Cards of each value in the deck (four of each, ace to ten).
_PER_VALUE = NUM_CARDS // 10


class FoursquareEncoder(Encoder):
    game_id = "foursquare"
    one_deal = True

    def fields(self) -> list[Field]:
        return [
            Field("occupied", CELLS, "a pile stands on the cell"),
            Field("face_up", CELLS, "the pile's top is face up"),
            Field("height", HEIGHT * CELLS,
                  "thermometer planes: plane h (0-3) is 1 where the pile holds more than h "
                  "cards"),
            Field("top_value", 10 * CELLS,
                  "plane v-1 (v = 1 ace .. 10) is 1 where the top card (face up or down: "
                  "every card was seen when placed) has value v"),
            Field("card", 10, "one-hot value of the card in hand (all 0 once over)"),
            Field("unseen", 10, "cards of each value still in the stock, / 4"),
            Field("stock", 1, "cards left in the stock, / 40"),
            Field("face_down", 1, "face-down tops, / 4 (a fifth loses)", 0.0, 1.25),
        ]

    def encode(self, view: JsonDict) -> np.ndarray:
        w = Writer(self.layout)
        seen = [0] * 10
        for name, pile in view["piles"].items():
            cell = parse_cell(name)
            cards = pile["cards"]
            w.one("occupied", cell)
            if pile["up"]:
                w.one("face_up", cell)
            for h in range(min(len(cards), HEIGHT)):
                w.one("height", h * CELLS + cell)
            w.one("top_value", (_CARD_VALUE[cards[-1]] - 1) * CELLS + cell)
            for text in cards:
                seen[_CARD_VALUE[text] - 1] += 1
        card = view["card"]
        if card is not None:
            value = _CARD_VALUE[card]
            w.one("card", value - 1)
            seen[value - 1] += 1
        start = self.layout.start("unseen")
        for v, n in enumerate(seen):
            w.num(start + v, (_PER_VALUE - n) / _PER_VALUE)
        w.scalar("stock", view["stock"] / NUM_CARDS)
        w.scalar("face_down", view["face_down"] / 4)
        return w.done()

    def points(self, state: Any) -> list[float]:
        raise NotImplementedError("Foursquare is one deal: its deal reward is the match's")
