"""The Spite & Malice planner: every sequence of builds a seat can make this turn, scored by
the rule bot's weights, the rule bot's discard, the rule bot's whole turn on a full state
and the playouts' leaf estimate. The rule bot and the search bot (``bots.py``, whose
docstring describes the planning, the scoring and the discards) both stand on it, and the
search bot's playouts spend nearly all their time in it, so the compiled build compiles
it (``COMPILED`` in this folder's ``__init__.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.engine import Action, JsonDict, Seat
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
        key = (_multiset(hand), heights, _multiset(centre))
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
            for j in _targets(pv, wild_to, by_need):
                new_centre = _placed(centre, j)
                score = self._score(new_centre, True, False, wilds + (pv == WILD), side_n,
                                    hand_n)
                step = (payoff_to_centre(j), (hand, heights, new_centre, self.payoff_size - 1))
                if score > self.best_score:
                    self.best_score = score
                    self.best_path = [*path, step]
                if self.collect is not None:
                    end = ("payoff", _multiset(hand), heights, _multiset(new_centre))
                    if end not in self.collect:
                        self.collect[end] = (score, [*path, step], PAYOFF)
        # side pile tops
        side = self.side
        for k, h in enumerate(heights):
            if not h:
                continue
            v = side[k][h - 1]
            targets = _targets(v, wild_to, by_need)
            if not targets:
                continue
            new_heights = _replaced(heights, k, h - 1)
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
            targets = _targets(v, wild_to, by_need)
            if not targets:
                continue
            new_hand = _replaced(hand, i, 0)
            for j in targets:
                new_centre = _placed(centre, j)
                path.append((HAND_TO_CENTRE + i * 4 + j,
                             (new_hand, heights, new_centre, self.payoff_size)))
                self._dfs(new_hand, heights, new_centre, path, wilds + (v == WILD), side_n,
                          hand_n + 1)
                path.pop()


_FEED_TABLES: dict[tuple[Any, ...], list[float]] = {}


def _targets(value: int, wild_to: list[int], by_need: dict[int, int]) -> list[int]:
    """The centre piles a card of building ``value`` may go on: any the wild cards may
    (``wild_to``), else the one pile needing it (``by_need``: one of equal piles), if any."""
    if value == WILD:
        return wild_to
    j = by_need.get(value)
    return [] if j is None else [j]


def _placed(centre: tuple[int, ...], j: int) -> tuple[int, ...]:
    """The centre pile sizes after a card is built on pile ``j`` (a complete pile is cleared)."""
    size = centre[j] + 1
    return _replaced(centre, j, 0 if size == COMPLETE else size)


def _replaced(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    out = list(values)
    out[i] = value
    return tuple(out)


def _multiset(values: tuple[int, ...]) -> int:
    """The values as a multiset, whatever their order, in one int: three bits counting each
    value (a hand's five slots and the centre's four piles never hold eight of one). Equal
    multisets give equal ints, so the planner's positions are told apart as by sorting."""
    key = 0
    for v in values:
        key += 1 << (3 * v)
    return key


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



# ----------------------------------------------------------------------------- whole turns
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


def payoff_gap(top: int, centre: list[list[int]]) -> int:
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
        gap = payoff_gap(VALUE[payoff[-1]], state.centre) if payoff else 99
        if gap < 3:
            wild += (LEAF_GAP_TO_MOVE if state.turn == seat else LEAF_GAP_WAITING)[gap]
        value += sign * wild
    return value
