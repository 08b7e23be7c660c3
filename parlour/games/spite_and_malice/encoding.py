"""Spite & Malice's encoding, seen from the seat (index 0 me, 1 my opponent).

Suits never matter here, so a card is its building value: classes 1..12 for ace..queen and
13 for a wild card (a king or a joker); class 0 is "no card".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.engine import JsonDict
from parlour.games.spite_and_malice.rules import (
    HAND_SIZE,
    JOKER,
    MAX_CENTRE,
    SIDE_PILES,
    VALUE,
    face_text,
)
from parlour.rl.encoding.base import Encoder, Field, Writer

VALUE_OF = {face_text(f): VALUE[f] for f in range(JOKER + 1)}
CLASSES = 14  # none, 1..12, wild
COMPLETE = 12


class SpiteAndMaliceEncoder(Encoder):
    game_id = "spite-and-malice"

    def fields(self) -> list[Field]:
        return [
            Field("hand", HAND_SIZE * CLASSES,
                  "per hand slot (1-5, the slots actions name), one-hot card: empty, 1..12, "
                  "wild"),
            Field("payoff_top", 2 * CLASSES, "per player (me, opponent), one-hot payoff top"),
            Field("payoff_size", 2, "per player, cards in the payoff pile / payoff_size"),
            Field("side_top", 2 * SIDE_PILES * CLASSES,
                  "per player and side pile, one-hot top card"),
            Field("side_cards", 2 * SIDE_PILES * 13,
                  "per player and side pile, how many cards of each value 1..12, wild, it "
                  "holds / 4", 0.0, 4.0),
            Field("side_size", 2 * SIDE_PILES, "per player and side pile, its cards / 10",
                  0.0, 4.0),
            Field("centre", MAX_CENTRE * 13,
                  "per centre pile, one-hot value it stands at (0 empty .. 11); a 4th pile "
                  "only with centre_piles=4"),
            Field("centre_open", MAX_CENTRE, "the centre pile exists at this table"),
            Field("hand_sizes", 2, "cards in hand, me then opponent, / 5"),
            Field("stock", 1, "cards in the stock / 104"),
            Field("completed", 1, "centre piles completed this round / 8", 0.0, 4.0),
            Field("scores", 2, "match scores, me then opponent, / target", 0.0, 2.0),
            Field("to_act", 2, "one-hot: I act, my opponent acts"),
            Field("turn", 1, "turns in this round / max_turns"),
        ]

    def encode(self, view: JsonDict) -> np.ndarray:
        me = view["seat"]
        w = Writer(self.layout)
        start = self.layout.start("hand")
        for i, text in enumerate(view["hand"]):
            w.hot.append(start + CLASSES * i + (0 if text is None else VALUE_OF[text]))
        options = view["options"]
        order = (me, 1 - me)
        top = self.layout.start("payoff_top")
        side_top = self.layout.start("side_top")
        side_cards = self.layout.start("side_cards")
        for i, seat in enumerate(order):
            payoff = view["payoff"][seat]
            w.hot.append(top + CLASSES * i
                         + (0 if payoff["top"] is None else VALUE_OF[payoff["top"]]))
            w.scalar("payoff_size", payoff["size"] / options["payoff_size"], i)
            for k, pile in enumerate(view["side_piles"][seat]):  # top card first
                j = i * SIDE_PILES + k
                w.hot.append(side_top + CLASSES * j + (VALUE_OF[pile[0]] if pile else 0))
                counts = [0] * 13
                for text in pile:
                    counts[VALUE_OF[text] - 1] += 1
                for v, c in enumerate(counts):
                    if c:
                        w.num(side_cards + 13 * j + v, c / 4)
                w.scalar("side_size", len(pile) / 10, j)
            w.scalar("hand_sizes", view["hand_sizes"][seat] / HAND_SIZE, i)
            w.scalar("scores", view["scores"][seat] / options["target"], i)
        centre = self.layout.start("centre")
        for j, pile in enumerate(view["centre"]):
            w.hot.append(centre + 13 * j + min(pile["stands_at"], COMPLETE - 1))
            w.one("centre_open", j)
        w.scalar("stock", view["stock"] / 104)
        w.scalar("completed", view["completed"] / 8)
        for seat in view["to_act"]:
            w.one("to_act", 0 if seat == me else 1)
        w.scalar("turn", view["turn"] / options["max_turns"])
        return w.done()

    def points(self, state: Any) -> list[float]:
        return [float(x) for x in state.scores]
