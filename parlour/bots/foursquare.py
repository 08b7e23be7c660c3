"""Foursquare bots: a greedy rule player, an expectimax solver, and a clairvoyant yardstick.

All of them search with the engine's own rule kernel (:func:`place_on`, :func:`legal_masks`
from :mod:`parlour.games.foursquare`) on a board of six ints, so they play by exactly the
rules the engine enforces.

``rule``: a greedy player, one card at a time. Of the placements that do not lose at once
it takes, in this order of preference: one that wins; the fewest face-down tops after the
flips; the fewest face-up tops turned down; a new pile rather than a stack (the grid must
grow to sixteen piles); the most face-down tops turned up.

``solver``: expectimax over the unknown stock. The card in hand is known; the next one is
any card not yet seen, with probability in proportion to how many of each value are left.
At ``solver`` (level ``normal``) it looks one card ahead: for each placement of the card in
hand, the expected value, over the next card, of the best placement of that card, as
judged by :func:`win_chance` (a logistic model of the chance to win, fitted on the
solver's own games; see ``docs/rules/foursquare.md``). ``solver:strong`` looks two cards
ahead for the most promising placements. A win is worth 1 and a loss 0, so the value of a
position is its estimated chance to win, which is what the terminal hint shows. The
solver reads only its observation: the view (every card on the table and the card in
hand) tells it which cards are left in the stock.

``clairvoyant``: *cheats by design*. It is given the true stock order when it is made
(``make_bot(..., deal=state.deal())``, as ``parlour analyse foursquare`` does), never
through an observation, and searches depth-first, with a node budget, for a line of play
that wins. It measures how winnable a deal is; it is never an opponent, and refuses to be
made without the stock order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from parlour.bots.base import Bot, Observation
from parlour.cards import parse_card
from parlour.engine import Action, Game, OptionError, Seat
from parlour.games.foursquare import (
    COL_MASK,
    MAX_DOWN,
    NUM_CARDS,
    ROW_MASK,
    SIZE,
    STACK,
    VALUE,
    is_win,
    legal_masks,
    parse_cell,
    place_on,
    used_lines,
)

#: occ, g2, g3, full, up, vals: the board as :mod:`parlour.games.foursquare` keeps it.
Board = tuple[int, int, int, int, int, int]
EMPTY: Board = (0, 0, 0, 0, 0, 0)
LINES = ROW_MASK + COL_MASK
_POP = int.bit_count


@dataclass
class Position:
    """What the player knows when a card must be placed."""

    board: Board
    placed: int
    card: int  # the value (1..10) of the card in hand
    left: list[int]  # left[v]: cards of value v still in the stock (index 0 unused)
    seed_mode: bool = False


def position_from_view(view: dict[str, Any]) -> Position:
    """Rebuild the board from a Foursquare view: every card on the table is in it."""
    occ = g2 = g3 = full = up = vals = 0
    left = [0] + [4] * 10
    for name, pile in view["piles"].items():
        cell = parse_cell(name)
        bit = 1 << cell
        cards = [parse_card(c) for c in pile["cards"]]
        for c in cards:
            left[VALUE[c]] -= 1
        occ |= bit
        height = len(cards)
        if height >= 2:
            g2 |= bit
        if height >= 3:
            g3 |= bit
        if height >= 4:
            full |= bit
        if pile["up"]:
            up |= bit
        vals |= VALUE[cards[-1]] << (4 * cell)
    card = VALUE[parse_card(view["card"])]
    left[card] -= 1
    return Position((occ, g2, g3, full, up, vals), view["placed"], card, left,
                    view["options"].get("flip") == "seed")


def moves(board: Board) -> list[Action]:
    """The legal actions on ``board``: new piles first, then stacks."""
    place, stack = legal_masks(board[0], board[3])
    out = []
    while place:
        low = place & -place
        out.append(low.bit_length() - 1)
        place ^= low
    while stack:
        low = stack & -stack
        out.append(STACK + low.bit_length() - 1)
        stack ^= low
    return out


def children(board: Board, value: int, seed_mode: bool
             ) -> list[tuple[Action, tuple[int, int, int, int, int, int, int]]]:
    """Each legal action with the board after it (and, last, the tops it turned over)."""
    occ, g2, g3, full, up, vals = board
    return [(a, place_on(occ, g2, g3, full, up, vals, a % STACK, value, seed_mode))
            for a in moves(board)]


# --------------------------------------------------------------------------- evaluation
#: Names of the features :func:`features` returns, in order.
FEATURES = (
    "piles",  # piles on the table, as a share of the sixteen needed
    "down",  # face-down tops
    "down_3",  # 1 when three tops are face down
    "down_4",  # 1 when four are (one more loses)
    "down_full",  # face-down tops on full piles: only a flip can turn them up
    "exposure",  # expected face-up tops turned down by a card placed in a line, summed
    "exposure_down",  # exposure times face-down tops / 4: exposure matters more near the limit
    "dead_lines",  # lines whose tops are all face down (a card there turns them all up)
    "missing",  # piles still missing, as a share of the cards left
    "room",  # cards the face-up piles can still take, as a share of the cards left
    "stock",  # cards left in the stock, as a share of 40
)

#: Weights of the logistic model (bias first), fitted by ``bench/foursquare_fit.py``.
WEIGHTS: tuple[float, ...] = (0.0, 8.0, -0.75, 0.0, -1.25, -0.25, -0.25, 0.0, 0.0, 0.0, 0.0,
                              0.0)


def features(board: Board, left: Sequence[int]) -> list[float]:
    """The features of ``board`` (after a placement) with ``left`` cards in the stock."""
    occ, g2, g3, full, up, vals = board
    piles = _POP(occ)
    down = _POP(occ & ~up)
    total = sum(left)
    # cum[v]: cards of value < v left (cum[11] = total)
    cum = [0] * 12
    run = 0
    for v in range(1, 11):
        cum[v] = run
        run += left[v]
    cum[11] = run
    exposure = 0.0
    dead = 0
    for mask in LINES:
        o = occ & mask
        if not o:
            continue
        u = o & up
        if not u:
            dead += 1
            continue
        hi, lo = 0, 11
        m = u
        while m:
            low = m & -m
            v = vals >> (4 * (low.bit_length() - 1)) & 15
            if v > hi:
                hi = v
            if v < lo:
                lo = v
            m ^= low
        if total:
            exposure += _POP(u) * (total - (cum[hi + 1] - cum[lo])) / total
    u = occ & up
    room = 3 * _POP(u) - _POP(u & g2) - _POP(u & g3) - _POP(u & full)
    return [
        piles / 16,
        float(down),
        1.0 if down == 3 else 0.0,
        1.0 if down >= MAX_DOWN else 0.0,
        float(_POP(full & occ & ~up)),
        exposure,
        exposure * down / MAX_DOWN,
        float(dead),
        (16 - piles) / total if total else 1.0,
        room / total if total else 0.0,
        total / NUM_CARDS,
    ]


def win_chance(board: Board, left: Sequence[int],
               weights: Sequence[float] = WEIGHTS) -> float:
    """The estimated chance to win from ``board`` (logistic in :func:`features`)."""
    z = weights[0]
    for w, f in zip(weights[1:], features(board, left), strict=True):
        z += w * f
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


Evaluate = Callable[[Board, Sequence[int]], float]

#: A win is worth 1, plus this much per card left in the stock: of two certain wins the
#: search prefers the sooner, higher-scoring one (too little to trade any real risk for).
WIN_BONUS = 1e-4


# --------------------------------------------------------------------------- expectimax
@dataclass
class Expectimax:
    """Expectimax over the next cards of the stock, with a static evaluation at the leaves.

    ``depth`` is the number of unknown cards looked at: 0 judges each placement of the card
    in hand by the evaluation alone, 1 (the default) also tries every value the next card
    may have. With ``deepen`` above ``depth``, the ``widen`` best placements at ``depth``
    are searched again ``deepen`` cards deep, and the best of them is chosen.
    """

    depth: int = 1
    deepen: int = 0
    widen: int = 3
    evaluate: Evaluate = win_chance
    nodes: int = field(default=0, init=False)

    def choose(self, pos: Position) -> tuple[Action, float, dict[Action, float]]:
        """The best action for ``pos``, its value, and the value of every action."""
        values = self._root_values(pos, self.depth)
        if self.deepen > self.depth and len(values) > 1:
            best = sorted(values, key=lambda a: (-values[a], a))[:self.widen]
            values = self._root_values(pos, self.deepen, only=best)
        action = max(values, key=lambda a: (values[a], -a))
        return action, values[action], values

    def _root_values(self, pos: Position, depth: int,
                     only: Sequence[Action] | None = None) -> dict[Action, float]:
        out: dict[Action, float] = {}
        left = list(pos.left)
        placed = pos.placed + 1
        for action, after in children(pos.board, pos.card, pos.seed_mode):
            if only is not None and action not in only:
                continue
            out[action] = self._after(after, placed, left, depth, pos.seed_mode)
        return out

    def _after(self, after: tuple[int, ...], placed: int, left: list[int], depth: int,
               seed_mode: bool) -> float:
        """The value of the board just after a placement (its flips included)."""
        self.nodes += 1
        occ, up = after[0], after[4]
        if _POP(occ) == SIZE * SIZE and not occ & ~up:
            return 1.0 + WIN_BONUS * (NUM_CARDS - placed)
        if _POP(occ & ~up) > MAX_DOWN or placed >= NUM_CARDS:
            return 0.0
        board = after[:6]
        if depth == 0:
            return self.evaluate(board, left)  # type: ignore[arg-type]
        return self._chance(board, placed, left, depth, seed_mode)  # type: ignore[arg-type]

    def _chance(self, board: Board, placed: int, left: list[int], depth: int,
                seed_mode: bool) -> float:
        total = 0
        acc = 0.0
        for value in range(1, 11):
            count = left[value]
            if not count:
                continue
            left[value] = count - 1
            best = 0.0
            for _, after in children(board, value, seed_mode):
                v = self._after(after, placed + 1, left, depth - 1, seed_mode)
                if v > best:
                    best = v
                    if v >= 1.0:
                        break  # a win: every win with this card scores the same
            left[value] = count
            acc += count * best
            total += count
        return acc / total if total else 0.0


# --------------------------------------------------------------------------- rule bot
def rule_key(before: Board, after: tuple[int, ...]) -> tuple[bool, bool, int, int, bool, int]:
    """The rule bot's preference for a placement (larger is better)."""
    occ, up, flipped = after[0], after[4], after[6]
    down = _POP(occ & ~up)
    turned_down = _POP(flipped & before[4])
    turned_up = _POP(flipped & before[0] & ~before[4])
    new_pile = _POP(occ) > _POP(before[0])
    return (is_win(occ, up), down <= MAX_DOWN, -down, -turned_down, new_pile, turned_up)


def rule_choice(pos: Position) -> Action:
    best_action, best_key = -1, None
    for action, after in children(pos.board, pos.card, pos.seed_mode):
        key = rule_key(pos.board, after)
        if best_key is None or key > best_key:
            best_action, best_key = action, key
    return best_action


class FoursquareRuleBot(Bot):
    """Greedy: win if it can, else keep the face-down tops as few as possible."""

    kind = "rule"

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        return rule_choice(position_from_view(obs.view))


# --------------------------------------------------------------------------- solver
LEVELS = {
    "fast": {"depth": 0},
    "normal": {"depth": 1},
    "strong": {"depth": 1, "deepen": 2, "widen": 3},
}


class FoursquareSolverBot(Bot):
    """Expectimax over the unknown stock (see the module docstring); ``level`` is one of
    ``fast``, ``normal`` (the default) and ``strong``."""

    kind = "solver"
    levels: ClassVar[dict[str, dict[str, int]]] = LEVELS

    def __init__(self, game: Game, seat: Seat, seed: int, level: str = "normal",
                 **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        if level not in LEVELS:
            raise OptionError(f"solver level {level!r}: choose from {', '.join(LEVELS)}")
        self.level = level
        self.search = Expectimax(**LEVELS[level])

    def analyse(self, obs: Observation) -> tuple[Action, float, dict[Action, float]]:
        """The chosen action, its estimated chance to win, and every action's value (the
        estimated chance; a certain win scores a little over 1, more the sooner it comes)."""
        pos = position_from_view(obs.view)
        action, value, values = self.search.choose(pos)
        return action, min(1.0, value), values

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.analyse(obs)[0]


# --------------------------------------------------------------------------- clairvoyant
WON, LOST, UNDECIDED = "won", "lost", "undecided"


@dataclass
class SearchResult:
    """What the clairvoyant search found: ``won`` with a winning line of actions, ``lost``
    (every line was tried: the deal cannot be won from there), or ``undecided`` (the node
    budget ran out first)."""

    status: str
    line: list[Action]
    nodes: int


def _key(board: Board) -> tuple[int, ...]:
    """The board moved to the top-left corner of the frame: boards that differ only by
    where the grid sits have the same future."""
    occ = board[0]
    if not occ:
        return board
    rows, cols = used_lines(occ)
    k = 7 * ((rows & -rows).bit_length() - 1) + (cols & -cols).bit_length() - 1
    return (occ >> k, board[1] >> k, board[2] >> k, board[3] >> k, board[4] >> k,
            board[5] >> 4 * k)


class _Budget(Exception):
    pass


def clairvoyant_search(order: Sequence[int], board: Board = EMPTY, placed: int = 0,
                       budget: int = 100_000, seed_mode: bool = False,
                       evaluate: Evaluate = win_chance) -> SearchResult:
    """Search every line of play from ``board`` for the stock ``order`` (all 40 cards,
    ``order[placed]`` in hand) for a win, most promising placements first; at most
    ``budget`` boards are examined. Boards shown to lose are remembered (with where in
    the stock they occur), so no board is searched twice."""
    values = [VALUE[c] for c in order]
    left = [0] * 11
    for v in values[placed + 1:]:
        left[v] += 1
    lost: set[tuple[int, ...]] = set()
    line: list[Action] = []
    nodes = 0

    def search(board: Board, n: int) -> bool:
        nonlocal nodes
        key = (n, *_key(board))
        if key in lost:
            return False
        nodes += 1
        if nodes > budget:
            raise _Budget
        if NUM_CARDS - n < SIZE * SIZE - _POP(board[0]):
            lost.add(key)
            return False
        value = values[n]
        ranked = []
        for action, after in children(board, value, seed_mode):
            occ, up = after[0], after[4]
            if _POP(occ) == SIZE * SIZE and not occ & ~up:
                line.append(action)
                return True
            if _POP(occ & ~up) > MAX_DOWN or n + 1 >= NUM_CARDS:
                continue
            ranked.append((0.0, action, after[:6]))
        if n + 1 < NUM_CARDS:
            left[values[n + 1]] -= 1
        try:
            # Rank each placement by the best placement of the next card (known here).
            nxt = values[n + 1] if n + 1 < NUM_CARDS else 0
            for i, (_, action, after) in enumerate(ranked):
                best = 0.0
                for _, then in children(after, nxt, seed_mode):  # type: ignore[arg-type]
                    occ, up = then[0], then[4]
                    if _POP(occ) == SIZE * SIZE and not occ & ~up:
                        best = 2.0
                        break
                    if _POP(occ & ~up) > MAX_DOWN or n + 2 >= NUM_CARDS:
                        continue
                    v = evaluate(then[:6], left)  # type: ignore[arg-type]
                    if v > best:
                        best = v
                ranked[i] = (best, action, after)
            ranked.sort(key=lambda t: (-t[0], t[1]))
            for _, action, after in ranked:
                if search(after, n + 1):  # type: ignore[arg-type]
                    line.append(action)
                    return True
        finally:
            if n + 1 < NUM_CARDS:
                left[values[n + 1]] += 1
        lost.add(key)
        return False

    try:
        won = search(board, placed)
    except _Budget:
        return SearchResult(UNDECIDED, [], nodes)
    return SearchResult(WON if won else LOST, line[::-1], nodes)


class ClairvoyantBot(Bot):
    """Shown the stock order when made (``deal=``); plays a winning line if its search finds
    one within ``budget`` boards, otherwise the solver's choice. A yardstick, not a player."""

    kind = "clairvoyant"

    def __init__(self, game: Game, seat: Seat, seed: int, deal: Sequence[int] | None = None,
                 budget: int = 100_000, level: str | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        if deal is None:
            raise OptionError("the clairvoyant bot must be shown the stock order (deal=...): "
                              "it cheats by design and is no opponent; "
                              "`parlour analyse foursquare` runs it")
        self.deal = tuple(deal)
        self.budget = int(level) if level else budget
        self.result: SearchResult | None = None
        self._plan: list[Action] = []
        self._fallback = FoursquareSolverBot(game, seat, seed)

    def act(self, obs: Observation) -> Action:
        if self._plan and self._plan[0] in obs.legal:
            return self._plan.pop(0)
        pos = position_from_view(obs.view)
        self.result = clairvoyant_search(self.deal, pos.board, pos.placed, self.budget,
                                         pos.seed_mode)
        if self.result.status == WON:
            self._plan = list(self.result.line)
            return self._plan.pop(0)
        return self._fallback.act(obs)


BOTS: dict[str, type[Bot]] = {
    "rule": FoursquareRuleBot,
    "solver": FoursquareSolverBot,
    "clairvoyant": ClairvoyantBot,
}
