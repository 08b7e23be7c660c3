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

from parlour.features import FloatBuffer
from parlour.games.hit_the_deck.features import HTD_MAX_SEATS, HitTheDeckFeatures
from parlour.games.hit_the_deck.rules import NUM_KINDS, PHASE_NAMES, HitTheDeckSeen, build_deck
from parlour.rl.encoding.base import Encoder, Field

MAX_SEATS = HTD_MAX_SEATS


class HitTheDeckEncoder(Encoder):
    game_id = "hit-the-deck"
    lean = True

    def __init__(self, seats: int, options: dict[str, Any]) -> None:
        super().__init__(seats, options)
        self.deck_size = len(build_deck(options))
        #: The values themselves are computed by the compiled ``features.py`` of the folder.
        features = HitTheDeckFeatures(self.at, self.deck_size, options["max_turns"])
        self.filler = features.fill
        self.refiller = features.refill

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

    def fill(self, seen: HitTheDeckSeen, o: FloatBuffer) -> None:
        self.filler(seen, o)  # (encode calls the compiled filler itself, with no frame here)

    def points(self, state: Any) -> list[float]:
        return [-float(x) for x in state.scores]  # a lower total is better
