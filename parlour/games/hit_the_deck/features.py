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
from parlour.games.hit_the_deck.rules import NUM_KINDS, HitTheDeckSeen

#: The most seats Hit the Deck's encoding has room for.
HTD_MAX_SEATS: Final = 6
#: The value 1.0, made once. The values written are float objects taken from tables like
#: this one (typed ``Any``): compiled, a value typed ``float`` is a C double, boxed into a
#: new float object at every write (and ``1.0`` too), some 60 instructions of the 300 a
#: write costs.
_ONE: Final[Any] = float("1")
_ZERO: Final[Any] = float("0")
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
        #: Facts that give the observation of zeros (:meth:`fill` is a :meth:`refill` of
        #: them): nothing held, played, shown or scored, no seat, turn or phase.
        self.nothing = HitTheDeckSeen(
            seat=None, seats=0, options={}, round=0, dealer=-1, direction=1, phase=-1,
            turn=-1, to_act=(), hand=None, hand_sizes=(0,) * HTD_MAX_SEATS, top=-1,
            draw_size=0, discard_size=0, last_flip=False, plays=(), played=(0,) * NUM_KINDS,
            events=(), slapper=-1, shouted=False, my_slap=-1, last_slap=None,
            scores=(0,) * HTD_MAX_SEATS, rounds=(), legal=(), outcome=None)

    def fill(self, seen: HitTheDeckSeen, o: FloatBuffer) -> None:
        """Write ``seen`` into ``o`` (zeros, the layout's size)."""
        self.refill(self.nothing, seen, o)

    def refill(self, before: HitTheDeckSeen, seen: HitTheDeckSeen, o: FloatBuffer) -> None:
        """Turn ``o``, the observation of ``before`` (the same seat's facts, earlier in the
        same match; :attr:`nothing` for zeros), into the observation of ``seen``: each value
        whose facts changed is written (a value gone is written as 0), the rest left as it
        is. A learning environment's seat sees a few facts change between its turns, so
        this writes a third of what writing every value does."""
        one, zero = _ONE, _ZERO
        n = seen.seats
        me = seen.seat
        rel = _REL[n][me if me is not None else 0]
        # The hand: a quarter per card of a kind, up to 16, kind by kind along both sorted
        # hands (a kind gone is a count of 0, whose quarter is 0).
        was, now = before.hand or (), seen.hand or ()
        if now != was:
            start, quarters = self.hand, self.quarters
            i = j = 0
            while i < len(was) or j < len(now):
                kind = min(was[i] if i < len(was) else NUM_KINDS,
                           now[j] if j < len(now) else NUM_KINDS)
                old = 0
                while i < len(was) and was[i] == kind:
                    old += 1
                    i += 1
                new = 0
                while j < len(now) and now[j] == kind:
                    new += 1
                    j += 1
                if new != old:
                    o[start + kind] = quarters[new]
        if seen.top != before.top:
            if before.top >= 0:
                o[self.top + before.top] = zero
            o[self.top + seen.top] = one
        if seen.phase != before.phase:
            if before.phase >= 0:
                o[self.phase + before.phase] = zero
            o[self.phase + seen.phase] = one
        played, was_played = seen.played, before.played
        if played != was_played:  # an eighth per card, up to 32 of a kind
            eighths = self.eighths
            at_kind = self.played
            for k in range(NUM_KINDS):
                count = played[k]
                if count != was_played[k]:
                    o[at_kind + k] = eighths[count]
        if n != before.seats:
            for seat in range(n):
                o[self.seats + rel[seat]] = one
        sizes, was_sizes = seen.hand_sizes, before.hand_sizes
        if sizes != was_sizes:
            tenths = self.tenths
            for seat in range(n):
                if sizes[seat] != was_sizes[seat]:
                    o[self.hand_sizes + rel[seat]] = tenths[sizes[seat]]
        scores, was_scores = seen.scores, before.scores
        if scores != was_scores:
            target = seen.options["target"]
            for seat in range(n):
                if scores[seat] != was_scores[seat]:
                    o[self.scores + rel[seat]] = min(2.0, scores[seat] / target)
        if seen.to_act != before.to_act:
            for seat in before.to_act:
                o[self.to_act + rel[seat]] = zero
            for seat in seen.to_act:
                o[self.to_act + rel[seat]] = one
        if seen.turn != before.turn:
            if before.turn >= 0:
                o[self.turn + rel[before.turn]] = zero
            if seen.turn >= 0:
                o[self.turn + rel[seen.turn]] = one
        if seen.dealer != before.dealer:
            if before.dealer >= 0:
                o[self.dealer + rel[before.dealer]] = zero
            o[self.dealer + rel[seen.dealer]] = one
        if (seen.direction != 1) != (before.direction != 1):
            o[self.direction] = one if seen.direction != 1 else zero
        if seen.draw_size != before.draw_size:
            o[self.piles] = self.shares[seen.draw_size]
        if seen.discard_size != before.discard_size:
            o[self.piles + 1] = self.shares[seen.discard_size]
        if seen.last_flip != before.last_flip:
            o[self.last_flip] = one if seen.last_flip else zero
        if seen.slapper != before.slapper:
            if before.slapper >= 0:
                o[self.slapper + rel[before.slapper]] = zero
            if seen.slapper >= 0:
                o[self.slapper + rel[seen.slapper]] = one
        shouted = seen.slapper >= 0 and seen.shouted
        if shouted != (before.slapper >= 0 and before.shouted):
            o[self.shouted] = one if shouted else zero
