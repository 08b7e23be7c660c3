"""Spite & Malice bots. ``rule`` plans each turn as a whole from its seat's view alone.

Planning a turn
    * The bot searches (depth first, remembering positions already seen, at most
      :data:`NODE_LIMIT` positions) every sequence of builds it can make from its hand, the
      tops of its side piles (the cards beneath are face up, so a side pile is a known
      sequence) and its payoff top, and scores the position each sequence leads to. It
      plays the best sequence one build at a time and then discards.
    * A sequence ends where the bot learns something new: when the payoff top is played
      (the next payoff card is turned up) or when the hand is emptied (five new cards are
      drawn). It then plans again from what it now sees; it also plans again whenever the
      table is not what the plan expected.

Scoring a position (the weights are in :class:`Weights`)
    * Playing the payoff top outweighs everything else: that is how a round is won.
    * Kings (and jokers) are kept for the payoff: a wild card played costs a lot unless
      the sequence plays the payoff top.
    * Emptying the hand is worth a good deal (five fresh cards); each card played from a
      side pile or the hand is worth a little (clearing side piles uncovers cards, cycling
      the hand brings new ones).
    * Feeding the opponent is avoided: a centre pile left needing the rank of the
      opponent's payoff top costs heavily, one or two ranks short of it costs less. Before
      measuring the gap, the bot lets the opponent play whatever its own face-up side
      piles allow, since it can see them.
    * A centre pile left needing the rank of the bot's own payoff top earns a little.

Discarding (the move that ends the turn)
    * Never a king or joker while another card is held.
    * Side piles are kept in descending runs: the best place for a card is on a card one
      rank higher, then on the same rank, then on an empty pile (high cards first, to
      start runs), then on a higher card; burying a lower card is the last resort.
    * High cards and duplicates are discarded before low, single cards (low cards are
      needed soon).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.bots.base import Bot, Observation
from parlour.engine import Action, Game, Seat
from parlour.games.spite_and_malice import (
    COMPLETE,
    JOKER,
    VALUE,
    WILD,
    face_text,
    hand_to_centre,
    hand_to_side,
    payoff_to_centre,
    side_to_centre,
)

NODE_LIMIT = 3000
TEXT_VALUE = {face_text(f): VALUE[f] for f in range(JOKER + 1)}

Sig = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


@dataclass(frozen=True)
class Weights:
    payoff: float = 1000.0
    wild_spent: float = 150.0
    wild_for_payoff: float = 10.0
    hand_emptied: float = 200.0
    side_card: float = 6.0
    hand_card: float = 3.0
    feed: tuple[float, ...] = (150.0, 40.0, 10.0)  # gap 0, 1, 2 to the opponent's top
    setup: float = 20.0


class _Search:
    """One planning problem: the bot's cards and the table, as building values."""

    def __init__(self, hand: list[int], side: list[list[int]], centre: list[int],
                 payoff_top: int, opp_top: int, opp_side: list[list[int]], king_starts: bool,
                 weights: Weights) -> None:
        self.side = side  # bottom first
        self.king_starts = king_starts
        self.payoff_top = payoff_top
        self.opp_top = opp_top
        self.opp_side = [s for s in opp_side if s]
        self.w = weights
        self.hand0 = tuple(hand)
        self.heights0 = tuple(len(s) for s in side)
        self.centre0 = tuple(centre)
        self.best_score = float("-inf")
        self.best_path: list[tuple[Action, Sig]] = []
        self.seen: set[tuple[Any, ...]] = set()
        self.feeds: dict[tuple[int, ...], float] = {}
        self.nodes = 0
        self.payoff_size = 0

    def run(self, payoff_size: int) -> list[tuple[Action, Sig]]:
        self.payoff_size = payoff_size
        self._dfs(self.hand0, self.heights0, self.centre0, [], 0, 0, 0)
        return self.best_path

    # -- scoring
    def _feed_penalty(self, centre: tuple[int, ...]) -> float:
        pen = self.feeds.get(centre)
        if pen is not None:
            return pen
        pen = 0.0
        top = self.opp_top
        if top and top != WILD:
            feed = self.w.feed
            for size in centre:
                need = size + 1
                if need > top:
                    continue
                if self.opp_side:
                    need = self._opp_reach(need, top)
                gap = top - need
                if gap < len(feed):
                    pen += feed[gap]
        self.feeds[centre] = pen
        return pen

    def _opp_reach(self, need: int, top: int) -> int:
        """How far the opponent's face-up side piles could carry a pile needing ``need``."""
        stacks = [s.copy() for s in self.opp_side]
        moved = True
        while moved and need < top:
            moved = False
            for s in stacks:
                if s and s[-1] == need:
                    s.pop()
                    need += 1
                    moved = True
                    break
        return need

    def _score(self, centre: tuple[int, ...], payoff_played: bool, emptied: bool, wilds: int,
               side_played: int, hand_played: int) -> float:
        w = self.w
        score = w.side_card * side_played + w.hand_card * hand_played
        if payoff_played:
            score += w.payoff - w.wild_for_payoff * wilds
        else:
            score -= w.wild_spent * wilds
            if emptied:
                score += w.hand_emptied
            top = self.payoff_top
            if top and top != WILD and top - 1 in centre:
                score += w.setup
        return score - self._feed_penalty(centre)

    # -- search
    def _dfs(self, hand: tuple[int, ...], heights: tuple[int, ...], centre: tuple[int, ...],
             path: list[tuple[Action, Sig]], wilds: int, side_n: int, hand_n: int) -> None:
        key = (tuple(sorted(hand)), heights, tuple(sorted(centre)))
        if key in self.seen or self.nodes >= NODE_LIMIT:
            return
        self.seen.add(key)
        self.nodes += 1
        emptied = not any(hand)
        score = self._score(centre, False, emptied, wilds, side_n, hand_n)
        if score > self.best_score:
            self.best_score, self.best_path = score, path.copy()
        if emptied:
            return  # the hand is refilled here: plan again with the new cards
        # where each value goes: a pile needing it (equal piles are interchangeable)
        by_need: dict[int, int] = {}
        wild_to: list[int] = []
        for j, size in enumerate(centre):
            if size + 1 not in by_need:
                by_need[size + 1] = j
                if size or self.king_starts:
                    wild_to.append(j)
        # the payoff top: playing it ends the plan (the next card is turned up)
        pv = self.payoff_top
        if pv:
            for j in (wild_to if pv == WILD else [by_need[pv]] if pv in by_need else []):
                new_centre = _placed(centre, j)
                score = self._score(new_centre, True, False, wilds + (pv == WILD), side_n,
                                    hand_n)
                if score > self.best_score:
                    self.best_score = score
                    self.best_path = [*path, (payoff_to_centre(j),
                                              (hand, heights, new_centre, self.payoff_size - 1))]
        # side pile tops
        for k, h in enumerate(heights):
            if not h:
                continue
            v = self.side[k][h - 1]
            for j in (wild_to if v == WILD else [by_need[v]] if v in by_need else []):
                new_heights = (*heights[:k], h - 1, *heights[k + 1:])
                new_centre = _placed(centre, j)
                path.append((side_to_centre(k, j),
                             (hand, new_heights, new_centre, self.payoff_size)))
                self._dfs(hand, new_heights, new_centre, path, wilds + (v == WILD),
                          side_n + 1, hand_n)
                path.pop()
        # hand cards (one slot per value: equal values are interchangeable)
        tried: set[int] = set()
        for i, v in enumerate(hand):
            if not v or v in tried:
                continue
            tried.add(v)
            for j in (wild_to if v == WILD else [by_need[v]] if v in by_need else []):
                new_hand = (*hand[:i], 0, *hand[i + 1:])
                new_centre = _placed(centre, j)
                path.append((hand_to_centre(i, j),
                             (new_hand, heights, new_centre, self.payoff_size)))
                self._dfs(new_hand, heights, new_centre, path, wilds + (v == WILD), side_n,
                          hand_n + 1)
                path.pop()


def _placed(centre: tuple[int, ...], j: int) -> tuple[int, ...]:
    size = centre[j] + 1
    return (*centre[:j], 0 if size == COMPLETE else size, *centre[j + 1:])


def choose_discard(hand: list[int], side_tops: list[int], centre: list[int]) -> tuple[int, int]:
    """``(slot, side pile)`` for the discard that ends the turn (see the module docstring).

    ``hand`` holds building values by slot (0 for empty), ``side_tops`` the value on top of
    each side pile (0 for empty)."""
    held = [v for v in hand if v]
    only_wild = all(v == WILD for v in held)
    best: tuple[float, int, int] = (float("-inf"), -1, -1)
    needs = {size + 1 for size in centre}
    for i, v in enumerate(hand):
        if not v or (v == WILD and not only_wild):
            continue
        base = v + (8 if held.count(v) > 1 else 0) - (6 if v in needs else 0)
        for k, t in enumerate(side_tops):
            if not t:
                place = 30.0 + v
            elif t == WILD:
                place = 20.0
            elif t == v + 1:
                place = 50.0
            elif t == v:
                place = 45.0
            elif t > v:
                place = 25.0 - (t - v)
            else:
                place = -20.0 - (v - t)
            score = base + place
            if score > best[0]:
                best = (score, i, k)
    return best[1], best[2]


def _value(text: str | None) -> int:
    return 0 if text is None else TEXT_VALUE[text]


class SpiteAndMaliceRuleBot(Bot):
    """Plans the builds of a turn as a whole; see the module docstring."""

    kind = "rule"

    def __init__(self, game: Game, seat: Seat, seed: int, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.weights = Weights()
        self._plan: list[tuple[Action, Sig]] = []
        self._expect: Sig | None = None

    def act(self, obs: Observation) -> Action:
        view = obs.view
        me = obs.seat
        hand = [_value(t) for t in view["hand"]]
        side = [[TEXT_VALUE[t] for t in reversed(pile)] for pile in view["side_piles"][me]]
        centre = [c["stands_at"] for c in view["centre"]]
        payoff = view["payoff"][me]
        sig: Sig = (tuple(hand), tuple(len(s) for s in side), tuple(centre), payoff["size"])
        legal = obs.legal
        if self._plan and sig == self._expect:
            action, self._expect = self._plan.pop(0)
            if action in legal:
                return action
        opp = view["payoff"][1 - me]
        opp_side = [[TEXT_VALUE[t] for t in reversed(pile)]
                    for pile in view["side_piles"][1 - me]]
        search = _Search(hand, side, centre, _value(payoff["top"]), _value(opp["top"]),
                         opp_side, view["options"]["king_starts"], self.weights)
        plan = search.run(payoff["size"])
        if plan:
            (action, self._expect), self._plan = plan[0], plan[1:]
            if action in legal:
                return action
        self._plan, self._expect = [], None
        slot, pile = choose_discard(hand, [s[-1] if s else 0 for s in side], centre)
        action = hand_to_side(slot, pile)
        if action in legal:
            return action
        return legal[-1]  # not reached: every held card may be discarded


BOTS = {"rule": SpiteAndMaliceRuleBot}
