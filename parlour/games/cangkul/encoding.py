"""Cangkul's encoding of what a seat sees (``CangkulSeen``, the facts its view is built
from), seen from the seat: seats are counted from it in play order (0 me, 1 the next seat
to my left ...), padded to five seats.

Cards are numbered as :mod:`parlour.cards` numbers them: ``suit * 13 + rank`` with suits
clubs, diamonds, hearts, spades and ranks two .. ace.
"""

from __future__ import annotations

from typing import Any

from parlour.cards import cards_of
from parlour.features import FloatBuffer
from parlour.games.cangkul.rules import DRAW, PHASE_NAMES, CangkulSeen
from parlour.rl.encoding.base import Encoder, Field

MAX_SEATS = 5


class CangkulEncoder(Encoder):
    game_id = "cangkul"
    lean = True

    def fields(self) -> list[Field]:
        return [
            Field("hand", 52, "cards in my hand"),
            Field("phase", len(PHASE_NAMES), "one-hot: play, over"),
            Field("played", 52, "cards played this deal and not taken back"),
            Field("trick", MAX_SEATS * 52, "per relative seat, its card in the trick"),
            Field("lead_suit", 4, "one-hot suit of the trick on the table (none: I lead)"),
            Field("known", MAX_SEATS * 52,
                  "per relative seat, the cards it is known to hold (taken from a trick)"),
            Field("voids", MAX_SEATS * 4, "per relative seat, suits it has shown it lacks"),
            Field("seats", MAX_SEATS, "per relative seat, someone sits there"),
            Field("in", MAX_SEATS, "per relative seat, it still holds cards this deal"),
            Field("to_act", MAX_SEATS, "one-hot relative seat to act"),
            Field("winning", MAX_SEATS, "one-hot relative seat winning the trick on the table"),
            Field("dealer", MAX_SEATS, "one-hot relative seat that dealt"),
            Field("hand_sizes", MAX_SEATS, "per relative seat, cards in hand / 13", 0.0, 4.0),
            Field("stock", 1, "cards in the stock / 52"),
            Field("losses", MAX_SEATS, "per relative seat, lost deals / losses that end the "
                                       "match"),
            Field("take", 1, "1 at a table where a player who cannot follow takes the trick"),
        ]

    def fill(self, seen: CangkulSeen, o: FloatBuffer) -> None:
        me = seen.seat if seen.seat is not None else 0
        n = seen.seats
        at = self.at
        if seen.hand >= 0:
            start = at["hand"]
            for c in cards_of(seen.hand):
                o[start + c] = 1.0
        o[at["phase"] + seen.phase] = 1.0
        played = at["played"]
        for _, action in seen.moves:
            if action < DRAW:
                o[played + action] = 1.0
        for cards in seen.known:
            for c in cards_of(cards):
                o[played + c] = 0.0
        trick = at["trick"]
        for seat, card in seen.trick:
            o[trick + 52 * ((seat - me) % n) + card] = 1.0
        if seen.trick:
            o[at["lead_suit"] + seen.trick[0][1] // 13] = 1.0
            o[at["winning"] + (seen.win_seat - me) % n] = 1.0
        target = seen.options["losses"]
        for seat in range(n):
            r = (seat - me) % n
            for c in cards_of(seen.known[seat]):
                o[at["known"] + 52 * r + c] = 1.0
            for suit in range(4):
                if seen.voids[seat] >> suit & 1:
                    o[at["voids"] + 4 * r + suit] = 1.0
            o[at["seats"] + r] = 1.0
            if seen.hand_sizes[seat]:
                o[at["in"] + r] = 1.0
            o[at["hand_sizes"] + r] = min(4.0, seen.hand_sizes[seat] / 13)
            o[at["losses"] + r] = min(1.0, seen.losses[seat] / target)
        for seat in seen.to_act:
            o[at["to_act"] + (seat - me) % n] = 1.0
        o[at["dealer"] + (seen.dealer - me) % n] = 1.0
        o[at["stock"]] = seen.stock_size / 52
        if seen.options["empty_stock"] == "take":
            o[at["take"]] = 1.0

    def points(self, state: Any) -> list[float]:
        return [-float(x) for x in state.losses]  # fewer lost deals is better
