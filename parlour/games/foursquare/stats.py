"""Foursquare's telling figures (:mod:`parlour.stats`): scores and cards placed, and its
daily result (a solitaire has no points to compare)."""

from __future__ import annotations

from parlour.engine import Message, Seat, State
from parlour.message import plural_message
from parlour.stats import Counts, Figure, GameStats

#: A won daily deal counts above every lost one (40 cards are placed at most).
WON = 52


def counts(state: State, seat: Seat) -> Counts:
    """The score of a won deal (cards left in the stock) and the cards placed."""
    view = state.view(None)
    return {"score": float(view.get("score") or 0), "placed": float(view.get("placed") or 0)}


def daily_result(state: State, seat: Seat) -> float:
    """The cards placed, and a won deal 52 plus the cards left in the stock (its score)."""
    assert state.outcome is not None
    view = state.view(None)
    won = state.outcome.placing[0] == 1
    return float(WON + (view["score"] or 0) if won else view["placed"])


def daily_words(value: int) -> Message:
    """How a daily deal went (:func:`daily_result`'s number)."""
    if value == WON:  # zero is said on its own (pt counts 0 as one)
        return Message("won, with no card left in the stock")
    if value >= WON:
        return plural_message("won, {n} card left in the stock",
                              "won, {n} cards left in the stock", "n", n=value - WON)
    return plural_message("lost after {n} card placed", "lost after {n} cards placed", "n",
                          n=value)


STATS = GameStats(counts, (
    Figure("best_score", "score", best=True), Figure("mean_score", "score", "matches"),
    Figure("placed_per_deal", "placed", "matches")), daily_result=daily_result,
    daily_words=daily_words)
