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


KIT = PuzzleKit(NAMES, of)
