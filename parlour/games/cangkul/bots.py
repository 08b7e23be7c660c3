"""Cangkul bots. ``rule`` is a hand-written player that reads only its seat's view.

What it weighs: a player who cannot follow must dig in the stock, so a lead in a suit the
others lack costs them cards; the winner of a trick leads the next, so a sure winner keeps
the choice of suit; and a card that loses a trick is a card gone all the same.

* **Leading.** The suit: the one the most players still in are known to lack (they have
  had to draw, pass or take on it), then the one it holds most of (it can keep leading
  it). The card: the top card of that suit still out (a sure winner, so it leads again),
  else its lowest (the high ones stay to win a trick later).
* **Following.** Last to play: the lowest card that wins, if one does, else the lowest.
  Before the last: the top card still out if it holds it (a sure winner), else the lowest.
* **Drawing, passing, taking**: the rules leave no choice.

The search bot (ISMCTS, :mod:`parlour.bots.ismcts`) uses :func:`fast_policy` in its
playouts, plays out the deal, and judges it by :func:`value`.
"""

from __future__ import annotations

import random

from parlour.bots.base import Bot, Observation
from parlour.bots.ismcts import SearchHooks
from parlour.cards import SUIT_NAMES, parse_card, suit_of
from parlour.engine import Action, JsonDict, Seat
from parlour.games.cangkul.rules import CangkulState


def _unseen(view: JsonDict, hand: list[int]) -> set[int]:
    """The cards still out: not in the seat's hand, and not played this deal unless a
    player took it back into hand (then everyone knows it is there)."""
    played = {parse_card(a) for _, a in view["moves"] if a not in ("draw", "pass", "take")}
    known = {parse_card(c) for cards in view["known"] for c in cards}
    return (set(range(52)) - played - set(hand)) | (known - set(hand))


def is_top(card: int, unseen: set[int]) -> bool:
    """No card still out beats ``card`` in its suit."""
    return not any(c > card and suit_of(c) == suit_of(card) for c in unseen)


class CangkulRuleBot(Bot):
    """Leads where the others must dig, keeps the lead with sure winners, sheds low."""

    kind = "rule"

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        view = obs.view
        hand = [parse_card(c) for c in view["hand"]]
        unseen = _unseen(view, hand)
        if not view["trick"]:
            return self._lead(view, hand, unseen)
        return self._follow(view, list(legal), unseen)

    def _lead(self, view: JsonDict, hand: list[int], unseen: set[int]) -> Action:
        counts = [0, 0, 0, 0]
        for card in hand:
            counts[suit_of(card)] += 1
        still_in = [s for s, size in enumerate(view["hand_sizes"]) if size and
                    s != view["seat"]]
        lacking = [sum(1 for s in still_in if SUIT_NAMES[suit] in view["voids"][s])
                   for suit in range(4)]
        suit = max((s for s in range(4) if counts[s]), key=lambda s: (lacking[s], counts[s]))
        mine = [c for c in hand if suit_of(c) == suit]
        top = max(mine)
        return top if is_top(top, unseen) else min(mine)

    def _follow(self, view: JsonDict, legal: list[int], unseen: set[int]) -> Action:
        best = max(parse_card(t["card"]) for t in view["trick"]
                   if parse_card(t["card"]) // 13 == SUIT_NAMES.index(view["lead_suit"]))
        answered = {t["seat"] for t in view["trick"]}
        to_come = [s for s, size in enumerate(view["hand_sizes"])
                   if size and s not in answered and s != view["seat"]]
        winners = [c for c in legal if c > best]
        if not to_come:
            return min(winners) if winners else min(legal)
        top = max(legal)
        if top > best and is_top(top, unseen):
            return top
        return min(legal)


BOTS = {"rule": CangkulRuleBot}


# ----------------------------------------------------------------------------- search hooks
# ISMCTS plays Cangkul with these helpers, on determinized states that search sampled from
# an observation, so reading their hands is honest.

def fast_policy(state: CangkulState, seat: Seat, rng: random.Random) -> Action:
    """A cheap playout policy: lead at random; follow last with the lowest winner; else
    a random card of the suit."""
    legal = state.legal_actions(seat)
    if len(legal) == 1 or not state.trick:
        return legal[0] if len(legal) == 1 else rng.choice(legal)
    if not state.to_answer:
        win = state.win_card
        for card in legal:  # lowest first
            if card > win:
                return card
        return legal[0]
    return rng.choice(legal)


def value(state: CangkulState, seat: Seat) -> float:
    """How well ``seat`` stands where a playout stopped, 0 to 1: the result once the match
    is over; else, with each deal's loser equally likely to be anyone, how far its lost
    deals are from the others' (and, in the middle of a deal, how many cards it holds
    against the others)."""
    if state.outcome is not None:
        return state.reward(seat)
    n = state.num_seats
    target: int = state.options["losses"]
    losses = [float(x) for x in state.losses]
    if state.in_deal:  # in the middle of a deal
        sizes = [h.bit_count() for h in state.hands]
        most = max(sizes)
        for s in range(n):
            if sizes[s] and sizes[s] == most:
                losses[s] += 0.5
    others = (sum(losses) - losses[seat]) / (n - 1)
    return min(1.0, max(0.0, 0.5 + 0.5 * (others - losses[seat]) / target))


#: Iterations per move by level: a Cangkul playout to the deal's end is about 60 actions.
#: Measured in duplicate one-deal matches between two players (docs/bots.md, *Levels in
#: duplicate: cangkul*): at 150 iterations the search lost to the rule bot (47.8% of 800
#: games), at 800 it beats it; from 800 to 3,000 it gains little (53.1% of 800 games), so
#: the levels start where the search is worth more than the rule bot's plan and the steps
#: above it are wide.
LEVELS = {"easy": 800, "normal": 3000, "hard": 6000}

SEARCH = SearchHooks(policy=fast_policy, value=value, levels=LEVELS, exploration=0.5)
