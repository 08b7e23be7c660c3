"""Cangkul's puzzle themes (:class:`parlour.registry.PuzzleKit`): what to lead, and
which card to follow with."""

from __future__ import annotations

from parlour.engine import Action, Seat, State
from parlour.message import N_
from parlour.registry import PuzzleKit

NAMES = {
    "lead": N_("What to lead"),
    "follow": N_("Which card to follow with"),
}


def of(state: State, seat: Seat, answer: Action) -> tuple[str, ...]:
    return ("follow",) if state.view(seat)["trick"] else ("lead",)


KIT = PuzzleKit(NAMES, of)
