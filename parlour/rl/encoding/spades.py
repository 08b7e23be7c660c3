"""Spades' encoding, seen from the seat: seats are counted from it (0 me, 1 my left-hand
opponent, 2 my partner, 3 my right-hand opponent) and teams as mine, theirs.

Cards are numbered as :mod:`parlour.cards` numbers them: ``suit * 13 + rank`` with suits
clubs, diamonds, hearts, spades and ranks two .. ace.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.cards import card_text
from parlour.engine import JsonDict
from parlour.rl.encoding.base import Encoder, Field, Writer

CARD = {card_text(c): c for c in range(52)}
PHASES = ("bid", "play", "over")
#: Bid classes: 0 none yet, 1 nil, 2..14 bids 1..13, 15 blind nil.
BID_CLASSES = 16
#: For each seat, every seat counted from it.
_REL = tuple(tuple((s - me) % 4 for s in range(4)) for me in range(4))


def bid_class(bid: str | int | None) -> int:
    if bid is None:
        return 0
    if bid == "nil":
        return 1
    if bid == "blind nil":
        return 15
    return 1 + int(bid)


class SpadesEncoder(Encoder):
    game_id = "spades"

    def fields(self) -> list[Field]:
        return [
            Field("hand", 52, "cards in my hand (all 0 while I have not looked)"),
            Field("hand_hidden", 1, "I have not looked at my cards (blind nil offered)"),
            Field("phase", 3, "one-hot: bid, play, over"),
            Field("played", 4 * 52, "per relative seat, the cards it played this deal"),
            Field("trick", 4 * 52, "per relative seat, its card in the trick on the table"),
            Field("bids", 4 * BID_CLASSES,
                  "per relative seat, one-hot bid: none yet, nil, 1..13, blind nil"),
            Field("tricks", 4, "per relative seat, tricks taken this deal / 13"),
            Field("voids", 4 * 4, "per relative seat, suits it has shown it lacks this deal"),
            Field("spades_broken", 1, "spades have been played this deal"),
            Field("leader", 4, "one-hot relative seat that led the trick on the table"),
            Field("to_act", 4, "one-hot relative seat to act"),
            Field("dealer", 4, "one-hot relative seat that dealt"),
            Field("hand_sizes", 4, "per relative seat, cards in hand / 13"),
            Field("scores", 2, "match score, my team then theirs, / target (clipped to -2..2)",
                  -2.0, 2.0),
            Field("bags", 2, "bags, my team then theirs, / bag limit"),
            Field("deal", 1, "deal number / max_deals"),
        ]

    def encode(self, view: JsonDict) -> np.ndarray:
        me = view["seat"]
        at = self.at
        w = Writer(self.layout)
        hot, num = w.hot, w.num
        rel = _REL[me]
        if view["hand"] is not None:
            start = at["hand"]
            hot.extend([start + CARD[t] for t in view["hand"]])
        if view["hand_hidden"]:
            hot.append(at["hand_hidden"])
        hot.append(at["phase"] + PHASES.index(view["phase"]))
        played, voids = at["played"], at["voids"]
        lead_suit = -1
        for i, (seat, text) in enumerate(view["played"]):
            card = CARD[text]
            r = rel[seat]
            hot.append(played + 52 * r + card)
            if i & 3 == 0:
                lead_suit = card // 13
            elif card // 13 != lead_suit:
                hot.append(voids + 4 * r + lead_suit)
        trick = at["trick"]
        hot.extend([trick + 52 * rel[p["seat"]] + CARD[p["card"]] for p in view["trick"]])
        bids = at["bids"]
        hot.extend([bids + BID_CLASSES * rel[seat] + bid_class(bid)
                    for seat, bid in enumerate(view["bids"])])
        tricks, sizes = at["tricks"], at["hand_sizes"]
        for seat in range(4):
            r = rel[seat]
            num(tricks + r, view["tricks"][seat] / 13)
            num(sizes + r, view["hand_sizes"][seat] / 13)
        if view["spades_broken"]:
            hot.append(at["spades_broken"])
        if view["leader"] is not None:
            hot.append(at["leader"] + rel[view["leader"]])
        hot.extend([at["to_act"] + rel[seat] for seat in view["to_act"]])
        hot.append(at["dealer"] + rel[view["dealer"]])
        options = view["options"]
        mine = me & 1
        for i, team in enumerate((mine, 1 - mine)):
            num(at["scores"] + i, view["scores"][team] / options["target"])
            num(at["bags"] + i, view["bags"][team] / options["bag_limit"])
        num(at["deal"], view["deal"] / options["max_deals"])
        return w.done()

    def points(self, state: Any) -> list[float]:
        return [float(state.scores[s & 1]) for s in range(4)]
