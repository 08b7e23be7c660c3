"""Each game's telling figures, read from a finished match: one place per game.

A match gives each seat a few *counts* (``{"bids": 4, "bids_made": 3, ...}``), all of them
read from the finished state: its history (the actions, as a record replays them), its
outcome and its final spectator's view (what anyone may know once the match is over). A
profile adds the counts of every match up (:func:`summarise`) and shows each game's
*figures*: a count per match, per deal, per turn, a rate, or a best.

Every game's spec points at its :class:`GameStats` (``spec(game).stats``), so the server,
the profile and the tests ask one place. Counts are plain numbers keyed by short names;
the page names them in the reader's language (``parlour/web/players.js``).

Every game also counts ``matches``, ``wins`` and ``points`` (the seat's points in the
outcome), and gives a *daily result*: one number, higher is better, that compares people
who played the same daily deal (:func:`daily_result`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from parlour.engine import JsonDict, Message, Seat, State
from parlour.message import plural_message

Counts = dict[str, float]
#: A won Foursquare daily deal counts above every lost one (40 cards are placed at most).
FOURSQUARE_WON = 52


@dataclass(frozen=True)
class Figure:
    """One figure of a profile: ``numerator`` (a count) over ``per`` (another count; None:
    the total itself), or the best of ``numerator`` over the matches (``best``)."""

    key: str
    numerator: str
    per: str | None = None
    best: bool = False

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


def daily_result(state: State, seat: Seat, stats: GameStats | None) -> float:
    """``seat``'s result in a finished daily deal, higher is better: the seat's points
    (negated where fewer are better); Foursquare: the cards placed, and a won deal 52 plus
    the cards left in the stock (its score)."""
    outcome = state.outcome
    if outcome is None:
        raise ValueError("a daily deal's result is read once it is over")
    if state.game.id == "foursquare":
        view = state.view(None)
        won = outcome.placing[0] == 1
        return float(FOURSQUARE_WON + (view["score"] or 0) if won else view["placed"])
    points = float(outcome.points[seat])
    return -points if stats is not None and stats.lower_points_better else points


def daily_words(game_id: str, result: float, stats: GameStats | None) -> Message:
    """What a daily result (:func:`daily_result`'s number) means, in words for any language:
    the points, the penalties taken where fewer are better (never a bare "-1"), or how a
    Foursquare deal went."""
    value = round(result)
    if game_id == "foursquare":
        if value == FOURSQUARE_WON:  # zero is said on its own (pt counts 0 as one)
            return Message("won, with no card left in the stock")
        if value >= FOURSQUARE_WON:
            return plural_message("won, {n} card left in the stock",
                                  "won, {n} cards left in the stock", "n",
                                  n=value - FOURSQUARE_WON)
        return plural_message("lost after {n} card placed", "lost after {n} cards placed", "n",
                              n=value)
    if value == 0:  # zero is said on its own (pt counts 0 as one: "0 ponto")
        if game_id == "clockwork-spades":
            return Message("no penalty spades")
        if stats is not None and stats.lower_points_better:
            return Message("no penalty points")
        return Message("no points")
    if stats is not None and stats.lower_points_better:
        if game_id == "clockwork-spades":
            return plural_message("{n} penalty spade", "{n} penalty spades", "n", n=-value)
        return plural_message("{n} penalty point", "{n} penalty points", "n", n=-value)
    return plural_message("{n} point", "{n} points", "n", n=value)


# ----------------------------------------------------------------------------- the games
def _spades(state: State, seat: Seat) -> Counts:
    """Per deal: the seat's bid made (its team took at least the partners' bid), its nil
    made or failed, and its team's bags (overtricks) that deal."""
    team = seat % 2
    out = {"deals": 0.0, "bids": 0.0, "bids_made": 0.0, "nils": 0.0, "nils_made": 0.0,
           "nils_failed": 0.0, "bags": 0.0}
    for deal in _list(state.view(None).get("deals")):
        bids, tricks, teams = deal.get("bids"), deal.get("tricks"), deal.get("teams")
        if not (isinstance(bids, list) and isinstance(tricks, list) and isinstance(teams, list)):
            continue
        result = teams[team]
        out["deals"] += 1
        out["bags"] += float(result.get("bag_points", 0))
        if bids[seat] == 0:
            out["nils"] += 1
            out["nils_made" if tricks[seat] == 0 else "nils_failed"] += 1
        else:
            out["bids"] += 1
            out["bids_made"] += float(result.get("contract", 0) > 0)
    return out


def _spite_and_malice(state: State, seat: Seat) -> Counts:
    """Payoff cards played (``p>c<j>``) and turns taken (each run of the seat's actions)."""
    turns = payoff = 0
    before: Seat | None = None
    for who, action in state.history:
        if who == seat:
            turns += before != seat
            payoff += state.action_text(action).startswith("p>")
        before = who
    return {"turns": float(turns), "payoff_cards": float(payoff)}


_SLAP = re.compile(r"^slap (\d+)ms$")


def _hit_the_deck(state: State, seat: Seat) -> Counts:
    """Slaps and their reaction times (the server's timing, in the action), and With a
    Hand cards played without the shout."""
    slaps = slap_ms = missed = hands = 0.0
    for who, action in state.history:
        if who != seat:
            continue
        text = state.action_text(action)
        timed = _SLAP.match(text)
        if timed:
            slaps += 1
            slap_ms += int(timed[1])
        elif text.startswith("hit hand"):
            hands += 1
            missed += not text.endswith("!")
    return {"slaps": slaps, "slap_ms": slap_ms, "hands": hands, "shouts_missed": missed}


def _clockwork_spades(state: State, seat: Seat) -> Counts:
    """Penalty spades the seat holds at the end."""
    counts = state.view(None).get("penalty_counts") or []
    return {"penalty_spades": float(counts[seat]) if seat < len(counts) else 0.0}


def _foursquare(state: State, seat: Seat) -> Counts:
    """The score of a won deal (cards left in the stock) and the cards placed."""
    view = state.view(None)
    return {"score": float(view.get("score") or 0), "placed": float(view.get("placed") or 0)}


def _list(value: object) -> Sequence[JsonDict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


SPADES = GameStats(_spades, (
    Figure("bids_made", "bids_made", "bids"), Figure("nils_made", "nils_made"),
    Figure("nils_failed", "nils_failed"), Figure("bags_per_deal", "bags", "deals")))
SPITE_AND_MALICE = GameStats(_spite_and_malice, (
    Figure("payoff_per_turn", "payoff_cards", "turns"),))
HIT_THE_DECK = GameStats(_hit_the_deck, (
    Figure("slap_ms", "slap_ms", "slaps"), Figure("shouts_missed", "shouts_missed")),
    lower_points_better=True)
CLOCKWORK_SPADES = GameStats(_clockwork_spades, (
    Figure("penalty_spades", "penalty_spades", "matches"),), lower_points_better=True)
FOURSQUARE = GameStats(_foursquare, (
    Figure("best_score", "score", best=True), Figure("mean_score", "score", "matches"),
    Figure("placed_per_deal", "placed", "matches")))
