"""Hit the Deck's learning observation as plain floats: what a seat sees, written into a
float32 buffer (an ``array('f')``) that the NumPy side (its ``encoding.py``) wraps without
a copy.

This module is compiled with the game's rules (the folder's ``COMPILED``, read by
:mod:`parlour.native`), which is why it is apart from the encoder and imports no NumPy:
the core package must build and run without it. The layout (each field's name, size,
meaning and bounds) stays with the encoder; here is only how the values are computed, each
rule in one place.
"""

from __future__ import annotations

from typing import Any, Final

from parlour.features import FloatBuffer
from parlour.games.hit_the_deck.rules import HitTheDeckSeen

#: The most seats Hit the Deck's encoding has room for.
HTD_MAX_SEATS: Final = 6
#: The value 1.0, made once. The values written are float objects taken from tables like
#: this one (typed ``Any``): compiled, a value typed ``float`` is a C double, boxed into a
#: new float object at every write (and ``1.0`` too), some 60 instructions of the 300 a
#: write costs.
_ONE: Final[Any] = float("1")
#: For each number of seats and each seat, every seat counted from it.
_REL: Final = tuple(tuple(tuple((s - me) % n for s in range(n)) for me in range(n)) if n
                    else () for n in range(HTD_MAX_SEATS + 1))


class HitTheDeckFeatures:
    """Fills a Hit the Deck observation from a seat's facts (``HitTheDeckSeen``); ``at``
    is where each field starts (the encoder's layout)."""

    def __init__(self, at: dict[str, int], deck_size: int, max_turns: int) -> None:
        self.hand = at["hand"]
        self.top = at["top"]
        self.phase = at["phase"]
        self.played = at["played"]
        self.seats = at["seats"]
        self.to_act = at["to_act"]
        self.turn = at["turn"]
        self.dealer = at["dealer"]
        self.hand_sizes = at["hand_sizes"]
        self.scores = at["scores"]
        self.direction = at["direction"]
        self.piles = at["piles"]
        self.last_flip = at["last_flip"]
        self.slapper = at["slapper"]
        self.shouted = at["shouted"]
        self.deck_size = deck_size
        # Each field's values, made once (see ``_ONE``), by the counts that give them:
        #: the played field's, for each count of a kind played this round, up to the most
        #: moves a round may have: an eighth a card, clipped at 4;
        self.eighths: list[Any] = [min(4.0, c / 8) for c in range(max_turns + 1)]
        #: the hand's, for each count of a kind held: a quarter a card, clipped at 4;
        self.quarters: list[Any] = [min(4.0, c * 0.25) for c in range(deck_size + 1)]
        #: the hand sizes', for each size: a tenth a card, clipped at 5;
        self.tenths: list[Any] = [min(5.0, c / 10) for c in range(deck_size + 1)]
        #: the piles', for each size: its share of the deck, clipped at 1.
        self.shares: list[Any] = [min(1.0, c / deck_size) for c in range(deck_size + 1)]

    def fill(self, seen: HitTheDeckSeen, o: FloatBuffer) -> None:
        """Write ``seen`` into ``o`` (zeros, the layout's size)."""
        one = _ONE
        hand = seen.hand
        if hand:  # a quarter per card of a kind, up to 16 (the hand is sorted by kind)
            start = self.hand
            quarters = self.quarters
            kind, count = hand[0], 0
            for k in hand:
                if k != kind:
                    o[start + kind] = quarters[count]
                    kind, count = k, 0
                count += 1
            o[start + kind] = quarters[count]
        o[self.top + seen.top] = one
        o[self.phase + seen.phase] = one
        eighths = self.eighths
        at_kind = self.played
        for count in seen.played:  # an eighth per card, up to 32 of a kind
            if count:
                o[at_kind] = eighths[count]
            at_kind += 1
        n = seen.seats
        me = seen.seat
        rel = _REL[n][me if me is not None else 0]
        target = seen.options["target"]
        sizes, scores = seen.hand_sizes, seen.scores
        tenths = self.tenths
        for seat in range(n):
            r = rel[seat]
            o[self.seats + r] = one
            o[self.hand_sizes + r] = tenths[sizes[seat]]
            o[self.scores + r] = min(2.0, scores[seat] / target)
        for seat in seen.to_act:
            o[self.to_act + rel[seat]] = one
        if seen.turn >= 0:
            o[self.turn + rel[seen.turn]] = one
        o[self.dealer + rel[seen.dealer]] = one
        if seen.direction != 1:
            o[self.direction] = one
        o[self.piles] = self.shares[seen.draw_size]
        o[self.piles + 1] = self.shares[seen.discard_size]
        if seen.last_flip:
            o[self.last_flip] = one
        if seen.slapper >= 0:
            o[self.slapper + rel[seen.slapper]] = one
            if seen.shouted:
                o[self.shouted] = one
