"""Spite & Malice bots. ``rule`` plans each turn as a whole from its seat's view alone;
``ismcts`` (the generic bot, through the :data:`SEARCH` hooks at the bottom) weighs the rule
bot's candidate plans by Monte Carlo playouts of sampled hidden cards.

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

The search (``ismcts``): Monte Carlo over whole-turn plans
    Tree search over single moves is weak here: a turn is a chain of builds whose worth
    shows only at its end, and the rule bot already finds the best chains by its weights.
    So the search decides between *plans*, and keeps the rule bot's strengths:

    * **Candidates.** At the start of a turn, and again whenever it learns something (a
      new payoff top, five new cards), the bot lists every position its builds can reach
      (the rule bot's planner with ``collect``), best by the rule bot's score first. Plans
      far below the best (:data:`PLAN_GAP`) are dropped, and when the payoff top can be
      played only plans that play it remain; at most :data:`WIDTH` plans are kept. When
      the builds are done, the discard is a second decision among the distinct discards
      (equal values onto identical piles are one), best by the rule bot's order first.
    * **Playouts.** Each candidate is played on a determinization (``obs.sample``: the
      opponent's hand, the stock's order and both payoff piles under their tops redealt
      from the cards the bot has not seen), then the rest of the turn, the opponent's
      turn and the bot's own next turn (:data:`HORIZON`) are played by the rule bot's
      policy (:func:`rule_turn`, which plays exactly as the rule bot would with those
      cards: against ``rule`` the opponent model is exact but for the hidden cards).
    * **Leaf.** Where a playout stops, :func:`leaf_value` estimates the round's points
      margin: a linear fit, on 89,000 positions of rule-bot play, of the final margin on
      the payoff lead, the kings held and whether a centre pile is 0, 1 or 2 ranks short of
      each payoff top (``bench/spite_and_malice_leaf.py`` refits it). A round that ended in
      the playout counts its real points.
    * **Comparison.** All candidates are played out on the same determinizations (common
      random numbers, so differences come from the plans, not the deal), and successive
      halving spends the :data:`PLAYOUTS` budget on the best. The rule bot's own choice
      always stays in the race and is overruled only by a challenger whose paired
      advantage is :data:`CONFIDENCE` standard errors clear of zero: with a small budget
      the bot plays like the rule bot, and it departs from it where the playouts show why.
    * **Memory.** The chosen plan is kept on the bot (``bot.memory``) and played one build
      at a time while the table is as expected, so only a plan's first move costs a search.
    * **Honesty.** Everything is computed from the observation: the view, and states
      sampled from it. Sampled states are read freely (the opponent's hand in a sample is
      a guess consistent with what the bot has seen, not the truth).
    * **Levels** set the playouts per decision (:data:`PLAYOUTS`) and the width; a time
      cap, when whoever runs the bot sets one (``Bot.time_cap``), stops a search early,
      after at least :data:`MIN_SAMPLES` determinizations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import Bot, Observation, stopwatch
from parlour.bots.ismcts import SearchHooks
from parlour.engine import Action, Game, JsonDict, Seat
from parlour.games.spite_and_malice.rules import (
    COMPLETE,
    EMPTY,
    HAND_TO_CENTRE,
    JOKER,
    OVER,
    SIDE_TO_CENTRE,
    VALUE,
    WILD,
    SpiteAndMaliceState,
    face_text,
    hand_to_side,
    payoff_to_centre,
)
from parlour.message import N_

NODE_LIMIT = 3000
#: How a candidate plan ends: the turn goes on to a discard, or the bot learns something
#: (a new payoff top, five new cards) and plans again.
STOP, PAYOFF, EMPTIED = "stop", "payoff", "emptied"
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


@dataclass
class Plan:
    """A sequence of builds, its score by the rule bot's weights, and how it ends."""

    score: float
    path: list[tuple[Action, Sig]]
    ending: str


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
        self.feed_table = self._feed_table()
        self.nodes = 0
        self.payoff_size = 0
        self.node_limit = NODE_LIMIT
        #: With ``collect``, every distinct end position: key -> (score, path, ending).
        self.collect: dict[tuple[Any, ...], tuple[float, list[tuple[Action, Sig]], str]] | None
        self.collect = None

    def run(self, payoff_size: int) -> list[tuple[Action, Sig]]:
        self.payoff_size = payoff_size
        self._dfs(self.hand0, self.heights0, self.centre0, [], 0, 0, 0)
        return self.best_path

    def candidates(self, payoff_size: int) -> list[Plan]:
        """Every distinct position a sequence of builds can reach, best score first: the
        turn's candidate plans (the rule bot plays the first)."""
        self.collect = {}
        self.run(payoff_size)
        plans = [Plan(score, path, ending) for score, path, ending in self.collect.values()]
        plans.sort(key=lambda p: -p.score)
        return plans

    # -- scoring
    def _feed_table(self) -> list[float]:
        """The feed penalty of a centre pile, by its size (see :meth:`_feed_penalty`)."""
        key = (self.opp_top, tuple(map(tuple, self.opp_side)), self.w.feed)
        table = _FEED_TABLES.get(key)
        if table is None:
            if len(_FEED_TABLES) > 50_000:
                _FEED_TABLES.clear()
            table = _FEED_TABLES[key] = [self._pile_feed(size) for size in range(COMPLETE)]
        return table

    def _pile_feed(self, size: int) -> float:
        """What leaving a centre pile of ``size`` cards costs: it needs the rank of the
        opponent's payoff top, or one or two ranks short of it, once the opponent's own
        face-up side piles have carried it as far as they can."""
        top = self.opp_top
        if not top or top == WILD:
            return 0.0
        need = size + 1
        if need > top:
            return 0.0
        if self.opp_side:
            need = self._opp_reach(need, top)
        gap = top - need
        feed = self.w.feed
        return feed[gap] if gap < len(feed) else 0.0

    def _feed_penalty(self, centre: tuple[int, ...]) -> float:
        pen = 0.0
        table = self.feed_table
        for size in centre:
            pen += table[size]
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
        seen = self.seen
        if key in seen or self.nodes >= self.node_limit:
            return
        seen.add(key)
        self.nodes += 1
        emptied = not any(hand)
        score = self._score(centre, False, emptied, wilds, side_n, hand_n)
        if score > self.best_score:
            self.best_score, self.best_path = score, path.copy()
        if self.collect is not None:
            self.collect[key] = (score, path.copy(), EMPTIED if emptied else STOP)
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
                step = (payoff_to_centre(j), (hand, heights, new_centre, self.payoff_size - 1))
                if score > self.best_score:
                    self.best_score = score
                    self.best_path = [*path, step]
                if self.collect is not None:
                    end = ("payoff", tuple(sorted(hand)), heights, tuple(sorted(new_centre)))
                    if end not in self.collect:
                        self.collect[end] = (score, [*path, step], PAYOFF)
        # side pile tops
        side = self.side
        for k, h in enumerate(heights):
            if not h:
                continue
            v = side[k][h - 1]
            if v == WILD:
                targets = wild_to
            elif v in by_need:
                targets = [by_need[v]]
            else:
                continue
            new_heights = (*heights[:k], h - 1, *heights[k + 1:])
            for j in targets:
                new_centre = _placed(centre, j)
                path.append((SIDE_TO_CENTRE + k * 4 + j,
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
            if v == WILD:
                targets = wild_to
            elif v in by_need:
                targets = [by_need[v]]
            else:
                continue
            new_hand = (*hand[:i], 0, *hand[i + 1:])
            for j in targets:
                new_centre = _placed(centre, j)
                path.append((HAND_TO_CENTRE + i * 4 + j,
                             (new_hand, heights, new_centre, self.payoff_size)))
                self._dfs(new_hand, heights, new_centre, path, wilds + (v == WILD), side_n,
                          hand_n + 1)
                path.pop()


_FEED_TABLES: dict[tuple[Any, ...], list[float]] = {}


def _placed(centre: tuple[int, ...], j: int) -> tuple[int, ...]:
    size = centre[j] + 1
    return (*centre[:j], 0 if size == COMPLETE else size, *centre[j + 1:])


def discard_options(hand: list[int], side_tops: list[int],
                    centre: list[int]) -> list[tuple[float, int, int]]:
    """Every allowed discard as ``(score, slot, side pile)``, best first (ties in slot
    order); the rule bot plays the first. See the module docstring.

    ``hand`` holds building values by slot (0 for empty), ``side_tops`` the value on top of
    each side pile (0 for empty)."""
    held = [v for v in hand if v]
    only_wild = all(v == WILD for v in held)
    needs = {size + 1 for size in centre}
    out: list[tuple[float, int, int]] = []
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
            out.append((base + place, i, k))
    out.sort(key=lambda o: -o[0])
    return out


def choose_discard(hand: list[int], side_tops: list[int], centre: list[int]) -> tuple[int, int]:
    """``(slot, side pile)`` for the discard that ends the turn."""
    _, slot, pile = discard_options(hand, side_tops, centre)[0]
    return slot, pile


# ----------------------------------------------------------------------------- the table
@dataclass
class Table:
    """What one seat plans with, as building values: its hand by slot (0 for an empty
    slot), its side piles (bottom first), the centre pile sizes, its payoff top and size,
    and the opponent's payoff top and side piles. All of it is in the seat's view."""

    hand: list[int]
    side: list[list[int]]
    centre: list[int]
    payoff_top: int
    payoff_size: int
    opp_top: int
    opp_side: list[list[int]]
    king_starts: bool

    @property
    def sig(self) -> Sig:
        return (tuple(self.hand), tuple(len(s) for s in self.side), tuple(self.centre),
                self.payoff_size)

    def search(self, weights: Weights, node_limit: int = NODE_LIMIT) -> _Search:
        search = _Search(self.hand, self.side, self.centre, self.payoff_top, self.opp_top,
                         self.opp_side, self.king_starts, weights)
        search.node_limit = node_limit
        return search

    def discards(self) -> list[tuple[float, int, int]]:
        """Every allowed discard, best first (see :func:`discard_options`)."""
        return discard_options(self.hand, [s[-1] if s else 0 for s in self.side], self.centre)

    def rule_discard(self) -> Action:
        """The discard the rule bot makes."""
        _, slot, pile = self.discards()[0]
        return hand_to_side(slot, pile)


def _value(text: str | None) -> int:
    return 0 if text is None else TEXT_VALUE[text]


def table_from_view(view: JsonDict, me: Seat) -> Table:
    payoff, opp = view["payoff"][me], view["payoff"][1 - me]
    return Table([_value(t) for t in view["hand"]],
                 [[TEXT_VALUE[t] for t in reversed(pile)] for pile in view["side_piles"][me]],
                 [c["stands_at"] for c in view["centre"]], _value(payoff["top"]),
                 payoff["size"], _value(opp["top"]),
                 [[TEXT_VALUE[t] for t in reversed(pile)]
                  for pile in view["side_piles"][1 - me]],
                 view["options"]["king_starts"])


def table_from_state(state: SpiteAndMaliceState, me: Seat) -> Table:
    """The same as :func:`table_from_view`, read straight from a (determinized) state."""
    payoff, opp = state.payoff[me], state.payoff[1 - me]
    return Table([0 if f == EMPTY else VALUE[f] for f in state.hands[me]],
                 [[VALUE[f] for f in pile] for pile in state.side[me]],
                 [len(p) for p in state.centre], VALUE[payoff[-1]] if payoff else 0,
                 len(payoff), VALUE[opp[-1]] if opp else 0,
                 [[VALUE[f] for f in pile] for pile in state.side[1 - me]],
                 state.options["king_starts"])


# ----------------------------------------------------------------------------- rule bot
class SpiteAndMaliceRuleBot(Bot):
    """Plans the builds of a turn as a whole; see the module docstring."""

    kind = "rule"

    def __init__(self, game: Game, seat: Seat, seed: int, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.weights = Weights()
        self._plan: list[tuple[Action, Sig]] = []
        self._expect: Sig | None = None

    def act(self, obs: Observation) -> Action:
        table = table_from_view(obs.view, obs.seat)
        sig = table.sig
        legal = obs.legal
        if self._plan and sig == self._expect:
            action, self._expect = self._plan.pop(0)
            if action in legal:
                return action
        plan = table.search(self.weights).run(table.payoff_size)
        if plan:
            (action, self._expect), self._plan = plan[0], plan[1:]
            if action in legal:
                return action
        self._plan, self._expect = [], None
        action = table.rule_discard()
        if action in legal:
            return action
        return legal[-1]  # not reached: every held card may be discarded


BOTS = {"rule": SpiteAndMaliceRuleBot}


# ----------------------------------------------------------------------------- search hooks
# The ismcts bot plays Spite & Malice by Monte Carlo over whole-turn plans (see the module
# docstring). Everything below that reads a full state reads a determinization sampled
# from the bot's observation, never the true state.
RULE_WEIGHTS = Weights()
#: Positions the planner may visit inside playouts (the rule bot itself allows NODE_LIMIT).
PLAYOUT_NODES = 400


def rule_turn(state: SpiteAndMaliceState, seat: Seat, node_limit: int = PLAYOUT_NODES) -> None:
    """Play the rest of ``seat``'s turn on a full state as the rule bot would: plan, play
    the plan, plan again while a plan finds builds, then discard."""
    start = state.round
    while True:
        table = table_from_state(state, seat)
        path = table.search(RULE_WEIGHTS, node_limit).run(table.payoff_size)
        if not path:
            state.apply(table.rule_discard(), seat)
            return
        for action, _ in path:
            state.apply(action, seat)
            if state.round != start or state.phase == OVER:
                return


def fast_policy(state: SpiteAndMaliceState, seat: Seat, rng: random.Random) -> Action:
    """One action of the rule bot's plan from a full state (for generic tree search)."""
    table = table_from_state(state, seat)
    path = table.search(RULE_WEIGHTS, PLAYOUT_NODES).run(table.payoff_size)
    return path[0][0] if path else table.rule_discard()


#: Playouts per decision by level (the ismcts bot's ``iterations``).
PLAYOUTS = {"easy": 16, "normal": 48, "hard": 160}
#: At most how many build plans, and how many discards, a decision compares, by level.
WIDTH = {"easy": (4, 3), "normal": (6, 4), "hard": (10, 6)}
#: Turns played out after a candidate (the opponent's, then the bot's own next one).
HORIZON = 2
#: Build plans scoring this far below the rule bot's best are not considered.
PLAN_GAP = 400.0
#: How much the rule bot's own score (per 1000) counts beside the playouts.
PRIOR = 0.2
#: The fewest determinizations evaluated before the time cap may stop the search.
MIN_SAMPLES = 2
#: Standard errors of paired advantage a challenger needs to overrule the rule bot.
CONFIDENCE = 1.5

# The evaluation where a playout stops: the expected points margin of the round, fitted by
# least squares to 89,000 positions of rule-bot play (the fit explains 30% of the variance
# of the margin, which is mostly the luck still to come). Per payoff card of lead; per king
# (or joker) held in hand or lying in a side pile, against the opponent's; and by how many
# ranks a centre pile is short of each payoff top (0: it can be played now; the seat to
# move gains more from it than the seat that waits).
LEAF_PAYOFF = 0.87
LEAF_HAND_WILD = 0.35
LEAF_SIDE_WILD = 0.12
LEAF_GAP_TO_MOVE = (1.39, 0.34, 0.40)
LEAF_GAP_WAITING = (1.31, 0.12, 0.28)


@dataclass
class _Candidate:
    """A way to go on: actions to play, then ``finish`` ("discard": the rule bot's discard;
    "turn": the rest of the turn as the rule bot plays it; "": nothing, the turn is over)."""

    actions: list[Action]
    finish: str
    prior: float


@dataclass
class _Memory:
    """The plan being played: the remaining steps, the table expected before the next
    one, and whether the turn ends with a discard after the last step."""

    steps: list[tuple[Action, Sig]]
    expect: Sig | None = None
    then_discard: bool = False


def _gap(top: int, centre: list[list[int]]) -> int:
    """How many ranks the closest centre pile is short of a payoff top (0: playable)."""
    if top == WILD:
        return 0
    best = 99
    for pile in centre:
        need = len(pile) + 1
        if need <= top and top - need < best:
            best = top - need
    return best


def leaf_value(state: SpiteAndMaliceState, me: Seat) -> float:
    """The expected points margin of the round for ``me`` (see the LEAF_ weights)."""
    op = 1 - me
    mine, theirs = state.payoff[me], state.payoff[op]
    value = LEAF_PAYOFF * (len(theirs) - len(mine))
    for seat, sign in ((me, 1.0), (op, -1.0)):
        wild = 0.0
        for f in state.hands[seat]:
            if f != EMPTY and VALUE[f] == WILD:
                wild += LEAF_HAND_WILD
        for pile in state.side[seat]:
            for f in pile:
                if VALUE[f] == WILD:
                    wild += LEAF_SIDE_WILD
        payoff = state.payoff[seat]
        gap = _gap(VALUE[payoff[-1]], state.centre) if payoff else 99
        if gap < 3:
            wild += (LEAF_GAP_TO_MOVE if state.turn == seat else LEAF_GAP_WAITING)[gap]
        value += sign * wild
    return value


def _playout(state: SpiteAndMaliceState, me: Seat, cand: _Candidate, horizon: int) -> float:
    start = state.round
    for action in cand.actions:
        state.apply(action, me)
        if state.round != start or state.phase == OVER:
            break
    else:
        if cand.finish == "discard":
            state.apply(table_from_state(state, me).rule_discard(), me)
        elif cand.finish == "turn":
            rule_turn(state, me)
    for _ in range(horizon):
        if state.round != start or state.phase == OVER:
            break
        rule_turn(state, state.turn)
    lead = float(state.scores[me] - state.scores[1 - me])
    if state.round == start and state.phase != OVER:
        lead += leaf_value(state, me)
    return lead


def _evaluate(obs: Observation, rng: random.Random, cands: list[_Candidate], budget: int,
              out_of_time: Callable[[], bool]) -> list[float]:
    """The value of each candidate: its mean playout result plus the rule bot's prior.

    The first candidate is the rule bot's own choice. Successive halving: every candidate
    still in the race is played out on the same determinizations (common random numbers:
    candidates are compared on identical hidden cards), then the worse half of the others
    drops out, until one challenger is left or ``budget`` playouts are spent. A dropped
    candidate keeps the mean it had, capped below the finalists. A challenger beats the
    rule bot's choice only if its paired advantage is clear (:data:`CONFIDENCE` standard
    errors); otherwise the rule bot's choice is valued highest."""
    n = len(cands)
    results: list[list[float]] = [[] for _ in range(n)]
    alive = list(range(1, n))
    stages = max(1, math.ceil(math.log2(n)))
    done = 0
    for stage in range(stages):
        per = max(1, budget // ((len(alive) + 1) * stages))
        for _ in range(per):
            if done >= MIN_SAMPLES and out_of_time():
                break
            base = obs.sample(rng)
            assert isinstance(base, SpiteAndMaliceState)
            for i in (0, *alive):
                results[i].append(_playout(base.clone(), obs.seat, cands[i], HORIZON))
            done += 1
        if stage < stages - 1 and len(alive) > 1:
            alive.sort(key=lambda i: -(_mean(results[i]) + cands[i].prior))
            alive = alive[:(len(alive) + 1) // 2]
    values = [_mean(r) + c.prior for r, c in zip(results, cands, strict=True)]
    floor = min(values[i] for i in (0, *alive))
    values = [v if i == 0 or i in alive else min(v, floor - 1e-3) for i, v in enumerate(values)]
    best = max(range(n), key=lambda i: values[i])
    if best != 0:
        base_runs = results[0]
        diffs = [x - base_runs[k] for k, x in enumerate(results[best])]
        if len(diffs) < 2 or values[best] - values[0] <= CONFIDENCE * _stderr(diffs):
            values[0] = values[best] + 1e-6
    return values


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else -math.inf


def _stderr(xs: list[float]) -> float:
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def _discard_candidates(table: Table, limit: int) -> list[tuple[Action, _Candidate]]:
    """The distinct discards (equal values onto equal piles are one), best by the rule
    bot's order first."""
    seen: set[tuple[int, tuple[int, ...]]] = set()
    out: list[tuple[Action, _Candidate]] = []
    for score, slot, pile in table.discards():
        key = (table.hand[slot], tuple(table.side[pile]))
        if key in seen:
            continue
        seen.add(key)
        action = hand_to_side(slot, pile)
        out.append((action, _Candidate([action], "", PRIOR * score / 100.0)))
        if len(out) == limit:
            break
    return out


def plan_values(obs: Observation, rng: random.Random, level: str,
                bot: Any = None) -> dict[Action, float] | None:
    """Values of the legal actions by Monte Carlo over whole-turn plans (see the module
    docstring). The plan chosen is remembered in ``bot.memory`` and played out step by
    step while the table is as expected."""
    me = obs.seat
    table = table_from_view(obs.view, me)
    playouts = getattr(bot, "iterations", PLAYOUTS.get(level, PLAYOUTS["normal"]))
    max_plans, max_discards = WIDTH.get(level, WIDTH["normal"])
    out_of_time = stopwatch(getattr(bot, "time_cap", None))
    if bot is not None:
        memory = bot.memory.setdefault("plan", _Memory([]))
    else:
        memory = _Memory([])
    sig = table.sig
    legal = obs.legal
    if memory.expect == sig:
        if memory.steps:
            action, memory.expect = memory.steps.pop(0)
            if action in legal:
                return {action: 1.0}
        elif memory.then_discard:
            memory.expect = None
            return _discard_values(obs, rng, table, playouts, max_discards, out_of_time)
    memory.steps, memory.expect = [], None
    plans = table.search(RULE_WEIGHTS).candidates(table.payoff_size)
    if plans:
        # The rule bot's verdict stands where it is clear: plans far below its best are
        # dropped, and when the payoff top can be played, only plans that play it remain.
        first = plans[0]
        plans = [p for p in plans if p.score >= first.score - PLAN_GAP
                 and (p.ending == PAYOFF or first.ending != PAYOFF)][:max_plans]
    if not plans:
        return _discard_values(obs, rng, table, playouts, max_discards, out_of_time)
    if len(plans) == 1:
        worth = [0.0]
    else:
        cands = [_Candidate([a for a, _ in p.path], "discard" if p.ending == STOP else "turn",
                            PRIOR * p.score / 1000.0) for p in plans]
        worth = _evaluate(obs, rng, cands, playouts, out_of_time)
    best = max(range(len(plans)), key=lambda i: worth[i])
    values: dict[Action, float] = {}
    for plan, w in zip(plans, worth, strict=True):
        if plan.path:
            opening = plan.path[0][0]
            values[opening] = max(values.get(opening, -math.inf), w)
    chosen = plans[best]
    if not chosen.path:
        discards = _discard_values(obs, rng, table, playouts, max_discards, out_of_time)
        top = max(discards.values())
        values.update({a: v - top + worth[best] + 1e-6 for a, v in discards.items()})
        return values
    (action, memory.expect), memory.steps = chosen.path[0], chosen.path[1:]
    memory.then_discard = chosen.ending == STOP
    values[action] = worth[best] + 1e-6
    return values


def _discard_values(obs: Observation, rng: random.Random, table: Table, playouts: int,
                    limit: int, out_of_time: Callable[[], bool]) -> dict[Action, float]:
    options = _discard_candidates(table, limit)
    if len(options) == 1:
        return {options[0][0]: 0.0}
    worth = _evaluate(obs, rng, [c for _, c in options], playouts, out_of_time)
    return {action: w for (action, _), w in zip(options, worth, strict=True)}


def value(state: SpiteAndMaliceState, seat: Seat) -> float:
    """For search that stops early (its ``value`` hook): the result once the match is
    over, else a logistic curve of the match-score lead plus half the lead in payoff cards
    still to play (a round's winner scores the loser's)."""
    if state.outcome is not None:
        return state.reward(seat)
    other = 1 - seat
    return _chance(state.scores[seat] - state.scores[other]
                   + 0.5 * (len(state.payoff[other]) - len(state.payoff[seat])))


def _chance(lead: float) -> float:
    """The chance to win the match of a seat ``lead`` points ahead, counting the round."""
    return 1.0 / (1.0 + math.exp(-lead / 10.0))


def turn_playout(state: SpiteAndMaliceState, me: Seat, rng: random.Random) -> float:
    """The search's playout by whole turns (its ``playout`` hook, used by the paired search
    of a post-game review, which values every legal action): the rest of the turn under
    way, then the next :data:`HORIZON` turns, each as the rule bot plays it
    (:func:`rule_turn`); then the chance to win the match, as :func:`value` with the
    round's points margin estimated by :func:`leaf_value` (or counted, if the round
    ended). Deterministic given the state (the rule bot draws no random numbers)."""
    start = state.round
    if state.phase != OVER and state.turn == me:
        rule_turn(state, me)
    for _ in range(HORIZON):
        if state.round != start or state.phase == OVER:
            break
        rule_turn(state, state.turn)
    if state.outcome is not None:
        return state.reward(me)
    lead = float(state.scores[me] - state.scores[1 - me])
    if state.round == start:
        lead += leaf_value(state, me)
    return _chance(lead)


SEARCH = SearchHooks(values=plan_values, levels=PLAYOUTS, value=value,
                     values_unit=N_("expected points margin of the round, by playouts of "
                                    "the next turns"),
                     policy=fast_policy, playout=turn_playout)
