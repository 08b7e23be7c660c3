"""Foursquare's puzzle themes (:class:`parlour.registry.PuzzleKit`): placing a card on
an empty square, or stacking it on a pile."""

from __future__ import annotations

from parlour.engine import Action, Seat, State
from parlour.message import N_
from parlour.registry import PuzzleKit

NAMES = {
    "placement": N_("Where to place the card"),
    "stacking": N_("Which pile to stack on"),
}


def of(state: State, seat: Seat, answer: Action) -> tuple[str, ...]:
    return ("stacking",) if state.action_text(answer).startswith("stack") else ("placement",)


#: No decision before the 25th move is mined. The board is still open there and every
#: placement keeps the deal about as winnable: of the first 83 puzzles mined from every
#: decision (seeds 0 and 2 of ``bench/puzzles.py``), none came before the 26th move
#: (``moves`` 25), and those early judgements took 72% of the solver's time (69 of 111
#: decisions in three deals, 38 of 53 CPU s).
FIRST_MOVE = 24

KIT = PuzzleKit(NAMES, of, first_move=FIRST_MOVE)
