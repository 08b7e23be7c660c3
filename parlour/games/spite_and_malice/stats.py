"""Spite & Malice's telling figures (:mod:`parlour.stats`): payoff cards a turn."""

from __future__ import annotations

from parlour.engine import Seat, State
from parlour.stats import Counts, Figure, GameStats


def counts(state: State, seat: Seat) -> Counts:
    """Payoff cards played (``p>c<j>``) and turns taken (each run of the seat's actions)."""
    turns = payoff = 0
    before: Seat | None = None
    for who, action in state.history:
        if who == seat:
            turns += before != seat
            payoff += state.action_text(action).startswith("p>")
        before = who
    return {"turns": float(turns), "payoff_cards": float(payoff)}


STATS = GameStats(counts, (Figure("payoff_per_turn", "payoff_cards", "turns"),))
