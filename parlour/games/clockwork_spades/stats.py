"""Clockwork Spades' telling figures (:mod:`parlour.stats`): penalty spades."""

from __future__ import annotations

from parlour.engine import Message, Seat, State
from parlour.message import plural_message
from parlour.stats import Counts, Figure, GameStats


def counts(state: State, seat: Seat) -> Counts:
    """Penalty spades the seat holds at the end."""
    found = state.view(None).get("penalty_counts") or []
    return {"penalty_spades": float(found[seat]) if seat < len(found) else 0.0}


def daily_words(value: int) -> Message:
    """A daily result in penalty spades (the result is their number, negated)."""
    if value == 0:  # zero is said on its own (pt counts 0 as one)
        return Message("no penalty spades")
    return plural_message("{n} penalty spade", "{n} penalty spades", "n", n=-value)


STATS = GameStats(counts, (Figure("penalty_spades", "penalty_spades", "matches"),),
                  lower_points_better=True, daily_words=daily_words)
