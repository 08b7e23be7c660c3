"""Clockwork Spades' puzzle theme (:class:`parlour.registry.PuzzleKit`): its one
decision, which due spade to take."""

from __future__ import annotations

from parlour.engine import Action, Seat, State
from parlour.message import N_
from parlour.registry import PuzzleKit

NAMES = {"which-spade": N_("Which spade to take")}


def of(state: State, seat: Seat, answer: Action) -> tuple[str, ...]:
    return ("which-spade",)


KIT = PuzzleKit(NAMES, of)
