"""Spades' encoding of what a seat sees (``SpadesSeen``, the facts its view is built from),
seen from the seat: seats are counted from it (0 me, 1 my left-hand opponent, 2 my partner,
3 my right-hand opponent) and teams as mine, theirs. The fields are laid out here; their
values are computed by the folder's compiled ``features.py``.

Cards are numbered as :mod:`parlour.cards` numbers them: ``suit * 13 + rank`` with suits
clubs, diamonds, hearts, spades and ranks two .. ace.
"""

from __future__ import annotations

from typing import Any

from parlour.features import FloatBuffer
from parlour.games.spades.features import BID_CLASSES, SpadesFeatures
from parlour.games.spades.rules import SpadesSeen
from parlour.rl.encoding.base import Encoder, Field

PHASES = ("bid", "play", "over")


class SpadesEncoder(Encoder):
    game_id = "spades"
    lean = True

    def __init__(self, seats: int, options: dict[str, Any]) -> None:
        super().__init__(seats, options)
        #: The values themselves are computed by the compiled ``features.py`` of the folder.
        self.filler = SpadesFeatures(self.at).fill

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

    def fill(self, seen: SpadesSeen, o: FloatBuffer) -> None:
        self.filler(seen, o)  # (encode calls the compiled filler itself, with no frame here)

    def points(self, state: Any) -> list[float]:
        return [float(state.scores[s & 1]) for s in range(4)]
