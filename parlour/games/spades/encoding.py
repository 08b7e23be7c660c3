"""Spades' encoding of what a seat sees (``SpadesSeen``, the facts its view is built from),
seen from the seat: seats are counted from it (0 me, 1 my left-hand opponent, 2 my partner,
3 my right-hand opponent) and teams as mine, theirs.

Cards are numbered as :mod:`parlour.cards` numbers them: ``suit * 13 + rank`` with suits
clubs, diamonds, hearts, spades and ranks two .. ace.
"""

from __future__ import annotations

from array import array
from typing import Any

from parlour.cards import cards_of
from parlour.games.spades.rules import SpadesSeen
from parlour.rl.encoding.base import Encoder, Field

PHASES = ("bid", "play", "over")
#: Bid classes: 0 none yet, 1 nil, 2..14 bids 1..13, 15 blind nil.
BID_CLASSES = 16
#: For each seat, every seat counted from it.
_REL = tuple(tuple((s - me) % 4 for s in range(4)) for me in range(4))


def bid_class(bid: int | None, blind: bool) -> int:
    """The class of a seat's bid (None: not yet; 0: nil)."""
    if bid is None:
        return 0
    if bid == 0:
        return 15 if blind else 1
    return 1 + bid


class SpadesEncoder(Encoder):
    game_id = "spades"
    lean = True

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

    def fill(self, seen: SpadesSeen, o: array[float]) -> None:
        me = seen.seat if seen.seat is not None else 0
        rel = _REL[me]
        at = self.at
        if seen.hand >= 0:
            start = at["hand"]
            for c in cards_of(seen.hand):
                o[start + c] = 1.0
        if seen.hand_hidden:
            o[at["hand_hidden"]] = 1.0
        o[at["phase"] + seen.phase] = 1.0
        played, voids = at["played"], at["voids"]
        where = [played + 52 * r for r in rel]  # each seat's row of the played field
        lead_suit = -1
        for i, (seat, card) in enumerate(seen.plays):
            o[where[seat] + card] = 1.0
            if i & 3 == 0:
                lead_suit = card // 13
            elif card // 13 != lead_suit:
                o[voids + 4 * rel[seat] + lead_suit] = 1.0
        trick = at["trick"]
        for seat, card in seen.trick:
            o[trick + 52 * rel[seat] + card] = 1.0
        bids, tricks, sizes = at["bids"], at["tricks"], at["hand_sizes"]
        for seat in range(4):
            r = rel[seat]
            o[bids + BID_CLASSES * r + bid_class(seen.bids[seat], seen.blind[seat])] = 1.0
            o[tricks + r] = seen.tricks[seat] / 13  # 0..13 tricks, 0..13 cards: in range
            o[sizes + r] = seen.hand_sizes[seat] / 13
        if seen.spades_broken:
            o[at["spades_broken"]] = 1.0
        if seen.leader >= 0:
            o[at["leader"] + rel[seen.leader]] = 1.0
        for seat in seen.to_act:
            o[at["to_act"] + rel[seat]] = 1.0
        o[at["dealer"] + rel[seen.dealer]] = 1.0
        options = seen.options
        mine = me & 1
        scores, bags, target = at["scores"], at["bags"], options["target"]
        for i, team in enumerate((mine, 1 - mine)):
            o[scores + i] = min(2.0, max(-2.0, seen.scores[team] / target))
            o[bags + i] = seen.bags[team] / options["bag_limit"]  # below the limit
        o[at["deal"]] = seen.deal / options["max_deals"]  # at most max_deals

    def points(self, state: Any) -> list[float]:
        return [float(state.scores[s & 1]) for s in range(4)]
