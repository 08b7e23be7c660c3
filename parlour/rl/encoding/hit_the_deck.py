"""Hit the Deck's encoding of what a seat sees (``HitTheDeckSeen``, the facts its view is
built from), seen from the seat: seats are counted from it in seat-number order (0 me, 1 the
next seat to my left ...), padded to six seats.

Cards are kinds 0..37 as the game numbers them: 0..19 number cards (``5 * colour + number
- 1``, colours R Y G B), 20..23 Cut the Deck, 24..27 Flip the Deck, 28..32 With a Number
1..5, 33..36 With a Colour R Y G B, 37 With a Hand.

The slap after a With a Hand is a simultaneous, timed phase in play; here it is a turn per
seat (lowest seat first), whose action is the reaction time (``slap 0ms`` .. ``slap 2990ms``
in 10 ms steps): each seat chooses without seeing the others' times, and the slowest draws
four, as at the table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.games.hit_the_deck import NUM_KINDS, PHASE_NAMES, HitTheDeckSeen, build_deck
from parlour.rl.encoding.base import Encoder, Field

MAX_SEATS = 6
#: For each number of seats and each seat, every seat counted from it.
_REL = tuple(tuple(tuple((s - me) % n for s in range(n)) for me in range(n)) if n else ()
             for n in range(MAX_SEATS + 1))


class HitTheDeckEncoder(Encoder):
    game_id = "hit-the-deck"
    lean = True

    def __init__(self, seats: int, options: dict[str, Any]) -> None:
        super().__init__(seats, options)
        self.deck_size = len(build_deck(options))
        #: The played field's value for each count of a kind played this round, up to the
        #: most moves a round may have: an eighth a card, clipped at 4.
        self._eighths = tuple(min(4.0, c / 8) for c in range(options["max_turns"] + 1))

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

    def encode(self, view: HitTheDeckSeen) -> np.ndarray:
        seen = view
        n = seen.seats
        at = self.at
        o = self.blank()
        start = at["hand"]
        for kind in seen.hand or ():  # a quarter per card, up to 16 cards of a kind
            if o[start + kind] < 4.0:
                o[start + kind] += 0.25
        o[at["top"] + seen.top] = 1.0
        o[at["phase"] + seen.phase] = 1.0
        eighths, at_kind = self._eighths, at["played"]
        for count in seen.played:  # an eighth per card, up to 32 of a kind
            if count:
                o[at_kind] = eighths[count]
            at_kind += 1
        rel = _REL[n][seen.seat if seen.seat is not None else 0]
        sizes, scores, target = at["hand_sizes"], at["scores"], seen.options["target"]
        seats = at["seats"]
        for seat in range(n):
            r = rel[seat]
            o[seats + r] = 1.0
            o[sizes + r] = min(5.0, seen.hand_sizes[seat] / 10)
            o[scores + r] = min(2.0, seen.scores[seat] / target)
        for seat in seen.to_act:
            o[at["to_act"] + rel[seat]] = 1.0
        if seen.turn >= 0:
            o[at["turn"] + rel[seen.turn]] = 1.0
        o[at["dealer"] + rel[seen.dealer]] = 1.0
        if seen.direction != 1:
            o[at["direction"]] = 1.0
        o[at["piles"]] = min(1.0, seen.draw_size / self.deck_size)
        o[at["piles"] + 1] = min(1.0, seen.discard_size / self.deck_size)
        if seen.last_flip:
            o[at["last_flip"]] = 1.0
        if seen.slapper >= 0:
            o[at["slapper"] + rel[seen.slapper]] = 1.0
            if seen.shouted:
                o[at["shouted"]] = 1.0
        return self.done(o)

    def points(self, state: Any) -> list[float]:
        return [-float(x) for x in state.scores]  # a lower total is better
