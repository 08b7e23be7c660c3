"""Hit the Deck's encoding, seen from the seat: seats are counted from it in seat-number
order (0 me, 1 the next seat to my left ...), padded to six seats.

Cards are kinds 0..37 as the game numbers them: 0..19 number cards (``5 * colour + number
- 1``, colours R Y G B), 20..23 Cut the Deck, 24..27 Flip the Deck, 28..32 With a Number
1..5, 33..36 With a Colour R Y G B, 37 With a Hand.

The slap after a With a Hand is a simultaneous, timed phase in play; here it is a turn per
seat (lowest seat first), whose action is the reaction time (``slap 0ms`` .. ``slap 2990ms``
in 10 ms steps): each seat chooses without seeing the others' times, and the slowest draws
four, as at the table.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter
from typing import Any

import numpy as np

from parlour.engine import JsonDict
from parlour.games.hit_the_deck import (
    ACTION_TEXT,
    CARD_TEXT,
    HAND,
    HAND_SHOUT,
    NUM_KINDS,
    PHASE_NAMES,
    build_deck,
)
from parlour.rl.encoding.base import Encoder, Field, Writer

MAX_SEATS = 6
#: For each number of seats and each seat, every seat counted from it.
_REL = tuple(tuple(tuple((s - me) % n for s in range(n)) for me in range(n)) if n else ()
             for n in range(MAX_SEATS + 1))
_second = itemgetter(1)
_SHOUTED = ACTION_TEXT[HAND_SHOUT]
KIND = {text: k for k, text in enumerate(CARD_TEXT)} | {ACTION_TEXT[HAND_SHOUT]: HAND}


class HitTheDeckEncoder(Encoder):
    game_id = "hit-the-deck"

    def __init__(self, seats: int, options: dict[str, Any]) -> None:
        super().__init__(seats, options)
        self.deck_size = len(build_deck(options))

    def fields(self) -> list[Field]:
        return [
            Field("hand", NUM_KINDS, "cards of each kind in my hand / 4", 0.0, 4.0),
            Field("top", NUM_KINDS, "one-hot kind of the top card of the discard pile"),
            Field("phase", len(PHASE_NAMES), "one-hot: play, drawn, cut, swap, slap, over"),
            Field("played", NUM_KINDS, "cards of each kind played this round / 8", 0.0, 4.0),
            Field("seats", MAX_SEATS, "per relative seat, someone sits there"),
            Field("to_act", MAX_SEATS, "per relative seat, it may act now (several in a slap)"),
            Field("turn", MAX_SEATS, "one-hot relative seat whose turn it is (none in a slap)"),
            Field("dealer", MAX_SEATS, "one-hot relative seat that dealt this round"),
            Field("hand_sizes", MAX_SEATS, "per relative seat, cards in hand / 10", 0.0, 5.0),
            Field("scores", MAX_SEATS, "per relative seat, game total / target", 0.0, 2.0),
            Field("direction", 1, "1 when play goes to the right (after a swap), 0 to the left"),
            Field("piles", 2, "draw pile and discard pile sizes / deck size"),
            Field("last_flip", 1, "the top card is a Flip the Deck played just now"),
            Field("slapper", MAX_SEATS,
                  "in a slap, one-hot relative seat that played the With a Hand"),
            Field("shouted", 1, "in a slap, the With a Hand was played with the shout"),
        ]

    def encode(self, view: JsonDict) -> np.ndarray:
        me = view["seat"]
        n = view["seats"]
        at = self.at
        w = Writer(self.layout)
        hot, num = w.hot, w.num
        start = at["hand"]
        held: Counter[str] = Counter(view["hand"])
        w.idx.extend([start + KIND[text] for text in held])
        w.val.extend([min(count, 16) / 4 for count in held.values()])
        hot.append(at["top"] + KIND[view["top"]])
        hot.append(at["phase"] + PHASE_NAMES.index(view["phase"]))
        played = Counter(map(_second, view["played"]))
        if played[_SHOUTED]:  # With a Hand played with the shout is still a With a Hand
            played[CARD_TEXT[HAND]] += played.pop(_SHOUTED)
        start = at["played"]
        w.idx.extend([start + KIND[text] for text in played])
        w.val.extend([min(count, 32) / 8 for count in played.values()])
        rel = _REL[n][me]
        options = view["options"]
        sizes, scores, target = at["hand_sizes"], at["scores"], options["target"]
        hand_sizes, totals = view["hand_sizes"], view["scores"]
        for seat in range(n):
            r = rel[seat]
            num(sizes + r, hand_sizes[seat] / 10)
            num(scores + r, totals[seat] / target)
        hot.extend(range(at["seats"], at["seats"] + n))
        hot.extend([at["to_act"] + rel[seat] for seat in view["to_act"]])
        if view["turn"] is not None:
            hot.append(at["turn"] + rel[view["turn"]])
        hot.append(at["dealer"] + rel[view["dealer"]])
        if view["direction"] == "right":
            hot.append(at["direction"])
        num(at["piles"], view["draw_size"] / self.deck_size)
        num(at["piles"] + 1, view["discard_size"] / self.deck_size)
        if view["last_flip"]:
            hot.append(at["last_flip"])
        slap = view["slap"]
        if slap is not None:
            hot.append(at["slapper"] + rel[slap["player"]])
            if slap["shouted"]:
                hot.append(at["shouted"])
        return w.done()

    def points(self, state: Any) -> list[float]:
        return [-float(x) for x in state.scores]  # a lower total is better
