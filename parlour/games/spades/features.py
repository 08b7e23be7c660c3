"""Spades' learning observation as plain floats: what a seat sees (``SpadesSeen``), written
into a float32 buffer (an ``array('f')``) that the NumPy side (its ``encoding.py``) wraps
without a copy.

This module is compiled with the game's rules (the folder's ``COMPILED``, read by
:mod:`parlour.native`), which is why it is apart from the encoder and imports no NumPy:
the core package must build and run without it. The layout (each field's name, size,
meaning and bounds) stays with the encoder; here is only how the values are computed, each
rule in one place. Seats are counted from the seat that sees (0 me, 1 my left-hand
opponent, 2 my partner, 3 my right-hand opponent), teams as mine, theirs.
"""

from __future__ import annotations

from typing import Final

from parlour.features import FloatBuffer
from parlour.games.spades.rules import SpadesSeen

#: Bid classes: 0 none yet, 1 nil, 2..14 bids 1..13, 15 blind nil.
BID_CLASSES: Final = 16
#: For each seat, every seat counted from it.
_REL: Final = tuple(tuple((s - me) % 4 for s in range(4)) for me in range(4))
#: A count of tricks or of cards in hand (0..13) as the observation gives it: a thirteenth
#: each (in range by the rules).
_THIRTEENTHS: Final = tuple(n / 13 for n in range(14))


def bid_class(bid: int | None, blind: bool) -> int:
    """The class of a seat's bid (None: not yet; 0: nil)."""
    if bid is None:
        return 0
    if bid == 0:
        return 15 if blind else 1
    return 1 + bid


class SpadesFeatures:
    """Fills a Spades observation from a seat's facts; ``at`` is where each field starts
    (the encoder's layout)."""

    def __init__(self, at: dict[str, int]) -> None:
        self.hand = at["hand"]
        self.hand_hidden = at["hand_hidden"]
        self.phase = at["phase"]
        self.played = at["played"]
        self.trick = at["trick"]
        self.bids = at["bids"]
        self.tricks = at["tricks"]
        self.voids = at["voids"]
        self.spades_broken = at["spades_broken"]
        self.leader = at["leader"]
        self.to_act = at["to_act"]
        self.dealer = at["dealer"]
        self.hand_sizes = at["hand_sizes"]
        self.scores = at["scores"]
        self.bags = at["bags"]
        self.deal = at["deal"]

    def fill(self, seen: SpadesSeen, o: FloatBuffer) -> None:
        """Write ``seen`` into ``o`` (zeros, the layout's size)."""
        me = seen.seat if seen.seat is not None else 0
        rel = _REL[me]
        hand = seen.hand
        if hand >= 0:
            start = self.hand
            while hand:
                low = hand & -hand
                o[start + low.bit_length() - 1] = 1.0
                hand ^= low
        if seen.hand_hidden:
            o[self.hand_hidden] = 1.0
        o[self.phase + seen.phase] = 1.0
        played, voids = self.played, self.voids
        where = [played + 52 * r for r in rel]  # each seat's row of the played field
        lead_suit = -1
        for i, (seat, card) in enumerate(seen.plays):
            o[where[seat] + card] = 1.0
            if i & 3 == 0:
                lead_suit = card // 13
            elif card // 13 != lead_suit:
                o[voids + 4 * rel[seat] + lead_suit] = 1.0
        trick = self.trick
        for seat, card in seen.trick:
            o[trick + 52 * rel[seat] + card] = 1.0
        bids, tricks, sizes = self.bids, self.tricks, self.hand_sizes
        seen_bids, blind = seen.bids, seen.blind
        seen_tricks, seen_sizes = seen.tricks, seen.hand_sizes
        for seat in range(4):
            r = rel[seat]
            o[bids + BID_CLASSES * r + bid_class(seen_bids[seat], blind[seat])] = 1.0
            o[tricks + r] = _THIRTEENTHS[seen_tricks[seat]]
            o[sizes + r] = _THIRTEENTHS[seen_sizes[seat]]
        if seen.spades_broken:
            o[self.spades_broken] = 1.0
        if seen.leader >= 0:
            o[self.leader + rel[seen.leader]] = 1.0
        for seat in seen.to_act:
            o[self.to_act + rel[seat]] = 1.0
        o[self.dealer + rel[seen.dealer]] = 1.0
        options = seen.options
        mine = me & 1
        target, bag_limit = options["target"], options["bag_limit"]
        scores, bags = self.scores, self.bags
        for i, team in enumerate((mine, 1 - mine)):
            o[scores + i] = min(2.0, max(-2.0, seen.scores[team] / target))
            o[bags + i] = seen.bags[team] / bag_limit  # below the limit
        o[self.deal] = seen.deal / options["max_deals"]  # at most max_deals
