"""Foursquare bots: a greedy rule player, an expectimax solver, and a clairvoyant yardstick.

All of them search with the engine's own rule kernel (:func:`place_on`, :func:`legal_masks`
from :mod:`parlour.games.foursquare.rules`) on a board of six ints, so they play by exactly the
rules the engine enforces.

``rule``: a greedy player, one card at a time. Of the placements that do not lose at once
it takes, in this order of preference: one that wins; the fewest face-down tops after the
flips; the fewest face-up tops turned down; a new pile rather than a stack (the grid must
grow to sixteen piles); the most face-down tops turned up.

``solver``: expectimax over the unknown stock. The card in hand is known; the next one is
any card not yet seen, with probability in proportion to how many of each value are left
(the view shows every card on the table, so the solver counts what is left; it never sees
the stock). For each placement of the card in hand it takes the expected value, over the
next card, of the best placement of that card, and so on; boards at the search horizon are
judged by :func:`judge`: the search first keeps the chance of losing within its horizon as
small as it can, then prefers boards of better :func:`rank`. Along the line it chooses it
also carries :func:`win_chance`, a fitted estimate of the chance to win, which the terminal
hint shows (see ``full-rules/en.md``). It always looks one card ahead,
then deeper while the next pass fits in a budget of boards: late in the game, with few
values left in the stock, it sees to the end and plays exactly. Levels (``solver:<level>``):
``fast`` (no lookahead), ``normal`` (the default: 20,000 boards a decision, well within
250 ms) and ``strong`` (400,000 boards, for analysis).

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
from parlour.engine import Action, Code, Game, OptionError, Seat
from parlour.games.foursquare.rules import (
    COL_MASK,
    COL_OF,
    FRAME,
    MAX_DOWN,
    NUM_CARDS,
    ROW_MASK,
    ROW_OF,
    SIZE,
    STACK,
    VALUE,
    is_win,
    legal_masks,
    parse_cell,
    place_on,
    used_lines,
    value_range,
)

#: occ, g2, g3, full, up, vals: the board as :mod:`parlour.games.foursquare.rules` keeps it.
Board = tuple[int, int, int, int, int, int]
EMPTY: Board = (0, 0, 0, 0, 0, 0)
#: A board just after a placement (:func:`place_on`): the six ints, then the mask of the
#: tops the placement turned over.
Placed = tuple[int, int, int, int, int, int, int]
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


def children(board: Board, value: int, seed_mode: bool) -> list[tuple[Action, Placed]]:
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

#: The solver's rank of a board (:func:`rank`), set by hand and checked by play
#: (``full-rules/en.md``): points per pile, off per face-down top, off when four
#: are down (one more loses), off per face-down top on a full pile, off per unit of
#: exposure.
PILE_POINTS = 2.0
DOWN_POINTS = 3.0
AT_LIMIT_POINTS = 5.0
DOWN_FULL_POINTS = 1.0
EXPOSURE_POINTS = 1.0

#: The chance to win is ``1 / (1 + exp(-z))`` with ``z = WEIGHTS[0] + WEIGHTS[1:] .
#: features``: a logistic regression fitted by ``bench/foursquare_fit.py`` on boards of
#: the solver's own games, each labelled with whether that game was won.
WEIGHTS: tuple[float, ...] = (4.282, 0.772, -0.159, 0.432, 0.624, -0.852, -0.123, -0.115,
                              -0.149, -1.202, -0.363, 1.278)


def _stock_counts(left: Sequence[int]) -> tuple[int, list[int]]:
    """The cards left, and ``cum[v]``: how many of them are below value ``v``."""
    total = 0
    cum = [0] * 12
    for v in range(1, 11):
        cum[v] = total
        total += left[v]
    cum[11] = total
    return total, cum


def _line_outside(occ: int, up: int, vals: int, line: int, total: int, cum: list[int]) -> int:
    """Line ``line`` (rows 0-6, then columns): its face-up tops times the cards left outside
    their range (0 for a line with no face-up top)."""
    o = occ & LINES[line]
    if not o:
        return 0
    u = o & up
    if not u:
        return 0
    lo, hi = value_range(u, vals)
    return _POP(u) * (total - cum[hi + 1] + cum[lo])


def exposure(occ: int, up: int, vals: int, left: Sequence[int]) -> tuple[float, int]:
    """Over every row and column: the face-up tops times the chance that the next card
    falls outside their range (placed in that line, it would turn them all down), summed;
    and the number of lines whose tops are all face down."""
    total, cum = _stock_counts(left)
    outside = 0
    dead = 0
    for k, mask in enumerate(LINES):
        o = occ & mask
        if not o:
            continue
        if not o & up:
            dead += 1
            continue
        outside += _line_outside(occ, up, vals, k, total, cum)
    return (outside / total if total else 0.0), dead


def features(board: Board, left: Sequence[int]) -> list[float]:
    """The features of ``board`` (after a placement) with ``left`` cards in the stock."""
    occ, g2, g3, full, up, vals = board
    piles = _POP(occ)
    down = _POP(occ & ~up)
    total = sum(left)
    exposed, dead = exposure(occ, up, vals, left)
    u = occ & up
    room = 3 * _POP(u) - _POP(u & g2) - _POP(u & g3) - _POP(u & full)
    return [
        piles / 16,
        float(down),
        1.0 if down == 3 else 0.0,
        1.0 if down >= MAX_DOWN else 0.0,
        float(_POP(full & occ & ~up)),
        exposed,
        exposed * down / MAX_DOWN,
        float(dead),
        (16 - piles) / total if total else 1.0,
        room / total if total else 0.0,
        total / NUM_CARDS,
    ]


def rank_bound(board: Board | Placed) -> float:
    """The rank without its exposure term: cheap, and never below the rank (a placement's
    board may be given as it comes, flips mask and all)."""
    occ, up, full = board[0], board[4], board[3]
    down = _POP(occ & ~up)
    return (PILE_POINTS * _POP(occ) - DOWN_POINTS * down
            - (AT_LIMIT_POINTS if down >= MAX_DOWN else 0.0)
            - DOWN_FULL_POINTS * _POP(full & occ & ~up))


def rank(board: Board, left: Sequence[int]) -> float:
    """The solver's rank of a board: higher is better (see the ``*_POINTS`` weights)."""
    return rank_bound(board) - EXPOSURE_POINTS * exposure(board[0], board[4], board[5], left)[0]


def win_chance(board: Board, left: Sequence[int],
               weights: Sequence[float] = WEIGHTS) -> float:
    """The estimated chance to win from ``board`` (logistic in :func:`features`)."""
    return _logistic(weights, features(board, left))


def _logistic(weights: Sequence[float], f: Sequence[float]) -> float:
    z = weights[0]
    for w, x in zip(weights[1:], f, strict=True):
        z += w * x
    return 0.0 if z < -30 else 1.0 / (1.0 + math.exp(-z))


#: A board at the search horizon is worth SURVIVE + TIE_BREAK * rank: a little less than a
#: win, and far more than a loss, so the search first makes the chance of losing within its
#: horizon as small as it can, then prefers the better-ranked boards.
SURVIVE = 0.99
TIE_BREAK = 1e-4
#: A win is worth 1, plus this much per card left in the stock: of two sure wins the
#: search takes the sooner, higher-scoring one (too little to trade any real risk for).
WIN_BONUS = 1e-5

Judgement = tuple[float, float]  # (value for choosing, estimated chance to win)
Judge = Callable[[Board, Sequence[int]], Judgement]


def judge(board: Board, left: Sequence[int]) -> Judgement:
    """How the solver values a board at its horizon, and the chance to win it estimates."""
    return SURVIVE + TIE_BREAK * rank(board, left), win_chance(board, left)


_LOSS: Judgement = (0.0, 0.0)


class _OutOfBudget(Exception):
    pass


@dataclass
class Choice:
    """A decision: the action, its estimated chance to win, and for every action its value
    (what the choice maximised) and estimated chance."""

    action: Action
    chance: float
    values: dict[Action, float]
    chances: dict[Action, float]


@dataclass
class Expectimax:
    """Expectimax over the next cards of the stock, with a static judgement at the horizon.

    ``depth`` is how many unknown cards are always looked at: 0 judges each placement of
    the card in hand by itself, 1 also tries every value the next card may have, and so on.
    Then, while the estimated cost of looking one card further fits in ``budget`` (boards
    examined per decision, all depths counted), the search deepens: late in the game, when
    few values are left in the stock, it sees to the end of the stock and plays exactly.
    The same board with the same cards left is valued once per search.

    Every node carries two numbers: the value the choices maximise (wins, then surviving
    the horizon, then the board's rank: see :func:`judge`) and the estimated chance to win
    of the line chosen, averaged over the cards to come like the value.
    """

    depth: int = 1
    budget: int = 0
    evaluate: Judge = judge
    nodes: int = field(default=0, init=False)
    reached: int = field(default=0, init=False)  # the depth of the last decision
    _limit: int = field(default=0, init=False, repr=False)
    _memo: dict[tuple[Any, ...], Judgement] = field(default_factory=dict, init=False,
                                                    repr=False)

    def choose(self, pos: Position) -> Choice:
        """The best action for ``pos``."""
        self.nodes = 0
        self._limit = 1 << 62  # the full-width depth always completes
        self._memo = {}
        stock = sum(pos.left)
        depth = min(self.depth, stock)
        values = self._root(pos, depth)
        # Each pass costs about as many times the one before as that one cost the one
        # before it (the first is measured against the placements of the card in hand).
        previous, last = len(values), self.nodes
        self._limit = 2 * self.budget  # an estimate can be short: stop a deeper pass here
        while depth < stock and len(values) > 1:
            if self.nodes + last * last / max(1, previous) > self.budget:
                break
            before = self.nodes
            try:
                deeper = self._root(pos, depth + 1)
            except _OutOfBudget:
                break
            depth += 1
            values = deeper
            previous, last = last, self.nodes - before
        self.reached = depth
        action = max(values, key=lambda a: (values[a][0], -a))
        return Choice(action, min(1.0, values[action][1]),
                      {a: v[0] for a, v in values.items()},
                      {a: v[1] for a, v in values.items()})

    def _root(self, pos: Position, depth: int) -> dict[Action, Judgement]:
        out: dict[Action, Judgement] = {}
        left = list(pos.left)
        placed = pos.placed + 1
        for action, after in children(pos.board, pos.card, pos.seed_mode):
            out[action] = self._after(after, placed, left, depth, pos.seed_mode)
        return out

    def _after(self, after: Placed, placed: int, left: list[int], depth: int,
               seed_mode: bool) -> Judgement:
        """The board just after a placement (its flips included)."""
        self.nodes += 1
        if self.nodes > self._limit:
            raise _OutOfBudget
        occ, up = after[0], after[4]
        if _POP(occ) == SIZE * SIZE and not occ & ~up:
            return 1.0 + WIN_BONUS * (NUM_CARDS - placed), 1.0
        if _POP(occ & ~up) > MAX_DOWN or placed >= NUM_CARDS:
            return _LOSS
        board = after[:6]
        if depth == 0:
            return self.evaluate(board, left)
        if depth == 1:
            return self._chance(board, placed, left, depth, seed_mode)
        key = (board, tuple(left), depth)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._chance(board, placed, left, depth, seed_mode)
        return found

    def _chance(self, board: Board, placed: int, left: list[int], depth: int,
                seed_mode: bool) -> Judgement:
        """The board before the next card is turned up: the mean over its values."""
        total = 0
        value_sum = chance_sum = 0.0
        for value in range(1, 11):
            count = left[value]
            if not count:
                continue
            left[value] = count - 1
            if depth == 1 and self.evaluate is judge:
                best = self._best_leaf(board, value, placed + 1, left, seed_mode)
                left[value] = count
                value_sum += count * best[0]
                chance_sum += count * best[1]
                total += count
                continue
            best = _LOSS
            for _, after in children(board, value, seed_mode):
                occ, up = after[0], after[4]
                if _POP(occ) == SIZE * SIZE and not occ & ~up:  # a win: none is better
                    self.nodes += 1
                    best = 1.0 + WIN_BONUS * (NUM_CARDS - placed - 1), 1.0
                    break
                got = self._after(after, placed + 1, left, depth - 1, seed_mode)
                if got[0] > best[0]:
                    best = got
            left[value] = count
            value_sum += count * best[0]
            chance_sum += count * best[1]
            total += count
        if not total:
            return _LOSS
        return value_sum / total, chance_sum / total

    def _best_leaf(self, board: Board, value: int, placed: int, left: list[int],
                   seed_mode: bool) -> Judgement:
        """What :meth:`_chance` finds one card from the horizon with :func:`judge`, faster:
        the placements are tried by :func:`rank_bound`, best first, and the exposure is
        only worked out while a placement may still beat the best so far."""
        ranked: list[tuple[float, Action, Placed]] = []
        for action, after in children(board, value, seed_mode):
            self.nodes += 1
            occ, up = after[0], after[4]
            if _POP(occ) == SIZE * SIZE and not occ & ~up:
                return 1.0 + WIN_BONUS * (NUM_CARDS - placed), 1.0
            if _POP(occ & ~up) > MAX_DOWN or placed >= NUM_CARDS:
                continue
            ranked.append((rank_bound(after), action, after))
        if self.nodes > self._limit:
            raise _OutOfBudget
        if not ranked:
            return _LOSS
        ranked.sort(key=lambda t: -t[0])
        # The exposure of each placement, from the board's: only the lines through the
        # placed card and through the tops it turned over change.
        total, cum = _stock_counts(left)
        lines = [_line_outside(board[0], board[4], board[5], k, total, cum) for k in range(14)]
        outside = sum(lines)
        best_rank, best_board = -math.inf, None
        for bound, action, after in ranked:
            if bound <= best_rank:
                break
            cell = action % STACK
            touched = {ROW_OF[cell], FRAME + COL_OF[cell]}
            flipped = after[6]
            while flipped:
                low = flipped & -flipped
                f = low.bit_length() - 1
                touched.add(ROW_OF[f])
                touched.add(FRAME + COL_OF[f])
                flipped ^= low
            changed = outside
            for k in touched:
                changed += _line_outside(after[0], after[4], after[5], k, total, cum) - lines[k]
            r = bound - EXPOSURE_POINTS * (changed / total if total else 0.0)
            if r > best_rank:
                best_rank, best_board = r, after
        assert best_board is not None
        return (SURVIVE + TIE_BREAK * best_rank,
                win_chance(best_board[:6], left))


# --------------------------------------------------------------------------- rule bot
def rule_key(before: Board, after: Placed) -> tuple[bool, bool, int, int, bool, int]:
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
    "fast": {"depth": 0, "budget": 0},
    "normal": {"depth": 1, "budget": 20_000},
    "strong": {"depth": 1, "budget": 400_000},
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
            raise OptionError("solver level {level}: choose from {known}", level=Code(repr(level)),
                              known=Code(", ".join(LEVELS)))
        self.level = level
        settings = LEVELS[level]
        self.search = Expectimax(depth=settings["depth"], budget=settings["budget"])

    def analyse(self, obs: Observation) -> Choice:
        """The chosen action, with its estimated chance to win and every action's."""
        return self.search.choose(position_from_view(obs.view))

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.analyse(obs).action


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
                       evaluate: Callable[[Board, Sequence[int]], float] | None = None,
                       ) -> SearchResult:
    """Search every line of play from ``board`` for the stock ``order`` (all 40 cards,
    ``order[placed]`` in hand) for a win, most promising placements first; at most
    ``budget`` boards are examined. Boards shown to lose are remembered (with where in
    the stock they occur), so no board is searched twice."""
    evaluate = evaluate or rank
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
        ranked: list[tuple[float, Action, Board]] = []
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
            # Rank each placement by the best placement of the next card (known here); a
            # placement after which every placement of the next card loses is lost.
            nxt = values[n + 1] if n + 1 < NUM_CARDS else 0
            for i, (_, action, child) in enumerate(ranked):
                best = -math.inf
                for _, then in children(child, nxt, seed_mode):
                    occ, up = then[0], then[4]
                    if _POP(occ) == SIZE * SIZE and not occ & ~up:
                        best = math.inf
                        break
                    if _POP(occ & ~up) > MAX_DOWN or n + 2 >= NUM_CARDS:
                        continue
                    v = evaluate(then[:6], left)
                    if v > best:
                        best = v
                ranked[i] = (best, action, child)
            ranked.sort(key=lambda t: (-t[0], t[1]))
            for best, action, child in ranked:
                if best == -math.inf:
                    break  # this one and the rest lose whatever comes next
                if search(child, n + 1):
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
    at_tables = False

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
