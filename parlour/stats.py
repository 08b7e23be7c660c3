"""Each game's telling figures, read from a finished match: one place per game.

A match gives each seat a few *counts* (``{"bids": 4, "bids_made": 3, ...}``), all of them
read from the finished state: its history (the actions, as a record replays them), its
outcome and its final spectator's view (what anyone may know once the match is over). A
profile adds the counts of every match up (:func:`summarise`) and shows each game's
*figures*: a count per match, per deal, per turn, a rate, or a best.

Every game's spec points at its :class:`GameStats` (``spec(game).stats``, made in the
game's folder, ``parlour/games/<game>/stats.py``), so the server,
the profile and the tests ask one place. Counts are plain numbers keyed by short names;
the page names them in the reader's language (``parlour/web/players.js``).

Every game also counts ``matches``, ``wins`` and ``points`` (the seat's points in the
outcome), and gives a *daily result*: one number, higher is better, that compares people
who played the same daily deal (:func:`daily_result`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from parlour.engine import JsonDict, Message, Seat, State
from parlour.message import plural_message

Counts = dict[str, float]


#: How a page writes a figure's value: a whole number, a percentage, one or two decimals.
SHOWN = ("whole", "percent", "fixed1", "fixed2")


@dataclass(frozen=True)
class Figure:
    """One figure of a profile: ``numerator`` (a count) over ``per`` (another count; None:
    the total itself), or the best of ``numerator`` over the matches (``best``).

    A game names its own figures here: ``label`` (marked with ``N_``; the page shows it in
    the reader's language) and ``shown``, how the page writes the value (:data:`SHOWN`). A
    figure without a label is one the page names itself (``parlour/web/players.js``)."""

    key: str
    numerator: str
    per: str | None = None
    best: bool = False
    label: str = ""
    shown: str = "fixed2"

    def __post_init__(self) -> None:
        if self.shown not in SHOWN:
            raise ValueError(f"figure {self.key}: shown is one of {', '.join(SHOWN)}")

    def words(self) -> dict[str, str]:
        """What the page needs to show the figure: its label and how to write its value."""
        return {"label": self.label, "shown": self.shown}

    def value(self, totals: Mapping[str, float], bests: Mapping[str, float]) -> float | None:
        if self.best:
            return bests.get(self.numerator)
        top = totals.get(self.numerator, 0.0)
        if self.per is None:
            return top
        bottom = totals.get(self.per, 0.0)
        return top / bottom if bottom else None


@dataclass(frozen=True)
class GameStats:
    """A game's counts for one seat of a finished match, and the figures made of them."""

    counts: Callable[[State, Seat], Counts]
    figures: tuple[Figure, ...]
    #: Whether fewer points are better (Hit the Deck, Clockwork Spades: points are penalties).
    lower_points_better: bool = False
    #: A daily deal's result where it is not the seat's points (Foursquare: the cards
    #: placed, a won deal more), higher is better.
    daily_result: Callable[[State, Seat], float] | None = None
    #: What a daily result means in words, where it is not plain points or penalty points
    #: (Foursquare's deals, Clockwork Spades' penalty spades).
    daily_words: Callable[[int], Message] | None = None


COMMON = (Figure("matches", "matches"), Figure("win_rate", "wins", "matches"),
          Figure("points_per_match", "points", "matches"))


def match_counts(state: State, seat: Seat, stats: GameStats | None) -> Counts:
    """Every count of ``seat`` in the finished match ``state``: the common ones and the
    game's own."""
    outcome = state.outcome
    if outcome is None:
        raise ValueError("a match's figures are read once it is over")
    counts: Counts = {"matches": 1.0, "wins": float(outcome.placing[seat] == 1),
                      "points": float(outcome.points[seat])}
    if stats is not None:
        counts.update(stats.counts(state, seat))
    return counts


def summarise(matches: Iterable[Mapping[str, float]], stats: GameStats | None
              ) -> dict[str, float | None]:
    """The figures of a person's matches of one game (their counts, one mapping each)."""
    totals: dict[str, float] = {}
    bests: dict[str, float] = {}
    for counts in matches:
        for key, value in counts.items():
            totals[key] = totals.get(key, 0.0) + value
            bests[key] = max(bests.get(key, value), value)
    figures = COMMON + (stats.figures if stats is not None else ())
    return {f.key: f.value(totals, bests) for f in figures}


def figure_words(stats: GameStats | None) -> dict[str, dict[str, str]]:
    """The words of a game's own named figures (:meth:`Figure.words`), by key."""
    return {f.key: f.words() for f in (stats.figures if stats is not None else ()) if f.label}


def daily_result(state: State, seat: Seat, stats: GameStats | None) -> float:
    """``seat``'s result in a finished daily deal, higher is better: the seat's points
    (negated where fewer are better), or the game's own result (its stats'
    ``daily_result``)."""
    outcome = state.outcome
    if outcome is None:
        raise ValueError("a daily deal's result is read once it is over")
    if stats is not None and stats.daily_result is not None:
        return stats.daily_result(state, seat)
    points = float(outcome.points[seat])
    return -points if stats is not None and stats.lower_points_better else points


def daily_words(result: float, stats: GameStats | None) -> Message:
    """What a daily result (:func:`daily_result`'s number) means, in words for any language:
    the points, the penalties taken where fewer are better (never a bare "-1"), or the
    game's own words (its stats' ``daily_words``)."""
    value = round(result)
    if stats is not None and stats.daily_words is not None:
        return stats.daily_words(value)
    penalties = stats is not None and stats.lower_points_better
    if value == 0:  # zero is said on its own (pt counts 0 as one: "0 ponto")
        return Message("no penalty points") if penalties else Message("no points")
    if penalties:
        return plural_message("{n} penalty point", "{n} penalty points", "n", n=-value)
    return plural_message("{n} point", "{n} points", "n", n=value)


def dicts(value: object) -> Sequence[JsonDict]:
    """The mappings of a view's list (a game's counts read them), nothing else."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
