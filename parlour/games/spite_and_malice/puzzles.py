"""Spite & Malice's puzzle themes (:class:`parlour.registry.PuzzleKit`): when to play
from the pay-off pile, and what to build or discard."""

from __future__ import annotations

from parlour.engine import Action, Seat, State
from parlour.message import N_
from parlour.registry import PuzzleKit

NAMES = {
    "payoff": N_("Play from the pay-off pile"),
    "hold-payoff": N_("Not yet from the pay-off pile"),
    "side-pile": N_("Build from a side pile"),
    "build": N_("Build from your hand"),
    "discard": N_("Which card to discard"),
}


def of(state: State, seat: Seat, answer: Action) -> tuple[str, ...]:
    text = state.action_text(answer)
    legal = [state.action_text(a) for a in state.legal_actions(seat)]
    if text.startswith("p>"):
        return ("payoff",)
    themes = ["hold-payoff"] if any(t.startswith("p>") for t in legal) else []
    if text.startswith("s"):
        themes.append("side-pile")
    elif ">s" in text:
        themes.append("discard")
    else:
        themes.append("build")
    return tuple(themes)


KIT = PuzzleKit(NAMES, of)
