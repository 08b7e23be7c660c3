"""Hit the Deck's puzzle themes (:class:`parlour.registry.PuzzleKit`): which command
card, which number card, when to draw."""

from __future__ import annotations

from parlour.engine import Action, Seat, State
from parlour.message import N_
from parlour.registry import PuzzleKit

NAMES = {
    "command": N_("Which command card"),
    "number": N_("Which number card"),
    "draw": N_("Draw or play"),
}
COMMAND_WORDS = ("cut", "flip", "hit", "swap")


def of(state: State, seat: Seat, answer: Action) -> tuple[str, ...]:
    text = state.action_text(answer)
    if text in ("draw", "pass"):
        return ("draw",)
    if any(word in text for word in COMMAND_WORDS):
        return ("command",)
    return ("number",)


#: With a Hand played without the shout costs the shout's penalty: a slip, not a choice.
KIT = PuzzleKit(NAMES, of, not_choices=("hit hand",))
