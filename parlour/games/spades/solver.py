"""Spades with every hand open: an alpha-beta search over the remaining tricks.

The search plays Spades' own card rules (follow suit, spades are trumps, no spade led until
spades are broken unless the hand holds nothing else) on four hands given as bit masks,
and values each line by a :data:`Scorer` of the tricks every seat ends the deal with: the
partnership's score of the deal (nil bonuses and penalties, bags at their future cost, see
:func:`deal_scorer`), or any other objective a caller names (the team's tricks, whether a
nil is made). It is a two-sided search: the searching team's seats maximise the value, the
other team's minimise it, each seeing every card.

What keeps it small:

* **Equal cards.** Two cards of one hand in one suit with no live card of another hand
  between them (live: in a hand or on the table) do the same in every line; only the
  highest of each such run is searched, and the others take its value.
* **A transposition table** at every trick's start, keyed by the four hands, the seat to
  lead, the tricks taken and whether spades are broken, holding a lower and an upper bound.
* **Move order**: leads high; to follow, partner winning: lowest first; else the cheapest
  winner first, then the lowest losers.
* **A node budget** (cards played in the search), never the clock. The search deepens one
  trick at a time (iterative deepening); at its horizon a position is judged by
  :func:`estimate` (each seat's sure winners, the other tricks shared by a count of trumps
  and high cards). When the budget runs out in the middle of a pass, the last complete pass
  answers. Late in a deal the search reaches the end of the deal and is exact:
  ``tests/test_spades_solver.py`` checks it against brute force on small endgames.

Nothing here reads a state: callers hand it a :class:`Position`, which a bot makes from a
determinization (:func:`position_of`) it sampled from its own observation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from parlour.cards import SPADES, SUIT_MASKS
from parlour.engine import Seat
from parlour.games.spades.rules import BIDDING, PLAYING, SpadesState, beats, playable, score_team

#: The value of a finished deal for the searching team, from every seat's tricks.
Scorer = Callable[[tuple[int, ...]], float]

_SPADE_MASK: Final = SUIT_MASKS[SPADES]
_ACES: Final = sum(1 << (13 * s + 12) for s in range(4))
_KINGS: Final = sum(1 << (13 * s + 11) for s in range(4))
_EXACT: Final = 99  # the depth recorded for a value searched to the end of the deal
_INF: Final = float("inf")


@dataclass(frozen=True)
class Position:
    """A deal in play with every hand open: what the search starts from."""

    hands: tuple[int, ...]  # the four hands as bit masks
    trick: tuple[tuple[Seat, int], ...]  # the cards on the table, in the order played
    turn: Seat  # the seat to play
    tricks: tuple[int, ...]  # tricks taken so far, per seat
    broken: bool  # spades have been broken
    nil: tuple[bool, ...] = (False, False, False, False)  # per seat: playing to take none


def position_of(state: SpadesState, nil: tuple[bool, ...] | None = None) -> Position:
    """The open position of a full state (a determinization: every hand is a guess but
    the seat's own). In the bidding, the play's start: the hands as dealt, the dealer's
    left to lead. ``nil`` (per seat) replaces the bids' nil seats, for the bidding."""
    if state.phase == BIDDING:
        turn = (state.dealer + 1) & 3
        return Position(tuple(state.hands), (), turn, (0, 0, 0, 0), False,
                        nil if nil is not None else (False,) * 4)
    if state.phase != PLAYING:
        raise ValueError("the deal is over: there is nothing to search")
    played = state.plays()
    on_table = len(played) & 3
    trick = tuple(played[len(played) - on_table:]) if on_table else ()
    nils = nil if nil is not None else tuple(b == 0 for b in state.bids)
    return Position(tuple(state.hands), trick, state.turn, tuple(state.tricks), state.broken,
                    nils)


def deal_scorer(state: SpadesState, seat: Seat) -> Scorer:
    """The partnership's score of the deal, for ``seat``'s team against the other: each
    team's score after the deal (``score_team``: contract, nil, bags and their penalty)
    less the future cost of the bags it then holds (the bag penalty shared over the bag
    limit, as the search bot's value counts them), ours minus theirs. Bids must be in."""
    options = state.options
    cost: float = options["bag_penalty"] / options["bag_limit"]
    bids = [b or 0 for b in state.bids]
    blind = tuple(state.blind)
    scores, bags = tuple(state.scores), tuple(state.bags)  # as they stand before the deal
    team = seat & 1
    cache: dict[tuple[int, ...], float] = {}

    def worth(t: int, tricks: tuple[int, ...]) -> float:
        res = score_team((bids[t], bids[t + 2]), (blind[t], blind[t + 2]),
                         (tricks[t], tricks[t + 2]), scores[t], bags[t], options)
        return float(res["score"]) - cost * float(res["bags"])

    def score(tricks: tuple[int, ...]) -> float:
        value = cache.get(tricks)
        if value is None:
            value = cache[tricks] = worth(team, tricks) - worth(1 - team, tricks)
        return value

    return score


def team_tricks(seat: Seat) -> Scorer:
    """The tricks ``seat``'s partnership takes."""
    partner = seat ^ 2
    return lambda tricks: float(tricks[seat] + tricks[partner])


def nil_made(seat: Seat) -> Scorer:
    """1 if ``seat`` takes no trick, else 0."""
    return lambda tricks: 1.0 if tricks[seat] == 0 else 0.0


class _Spent(Exception):
    """The node budget ran out in the middle of a pass."""


class Solver:
    """Searches a :class:`Position` for ``team`` (0: seats 0 and 2; 1: seats 1 and 3),
    valuing a finished deal by ``score``, within ``budget`` nodes a call of :meth:`values`."""

    def __init__(self, team: int, score: Scorer, budget: int) -> None:
        self.team = team
        self.score = score
        self.budget = budget
        self.nodes = 0  # nodes searched by the last call, every pass counted
        self.depth = -1  # the last complete pass: tricks searched past the current one
        self.exact = False  # whether that pass reached the end of the deal
        self._limit = 0
        self._table: dict[tuple[Any, ...], tuple[int, float, float]] = {}
        self._hands = [0, 0, 0, 0]
        self._tricks = [0, 0, 0, 0]
        self._nil: tuple[bool, ...] = (False, False, False, False)
        self._on_table = 0  # the cards of the trick on the table, as a mask
        self._turn = 0
        self._n = 0  # cards on the table
        self._lead_suit = -1
        self._win_card = -1
        self._win_seat = -1
        self._broken = False

    # ------------------------------------------------------------------ the answer
    def values(self, pos: Position) -> dict[int, float]:
        """The value of every card the seat to play may play (equal cards share one)."""
        self._load(pos)
        self.nodes = 0
        self._table = {}
        hand = self._hands[self._turn]
        legal = playable(hand, self._lead_suit if self._n else None, self._broken)
        moves = self._moves(legal)
        left = hand.bit_count()  # tricks still to start, this one included
        found: dict[int, float] = {}
        depth = 0
        self._limit = 1 << 62  # the first pass (to the end of this trick, one more) always ends
        self.depth, self.exact = -1, False
        while True:
            try:
                found = {card: self._root(card, depth) for card in moves}
            except _Spent:  # the pass was cut short: put the position back as it was
                self._load(pos)
                break
            self.depth = depth
            self.exact = depth >= left - 1
            if self.exact:
                break
            depth += 1
            self._limit = self.budget
        return self._spread(legal, found)

    def _root(self, card: int, depth: int) -> float:
        saved = self._play(card)
        next_depth = depth - 1 if self._n == 0 else depth
        try:
            return self._node(next_depth, -_INF, _INF)
        finally:
            self._undo(card, saved)

    def _spread(self, legal: int, found: dict[int, float]) -> dict[int, float]:
        """Give every legal card the value of the searched card it equals."""
        out: dict[int, float] = {}
        live = self._live()
        for suit in range(4):
            mine = legal & SUIT_MASKS[suit]
            if not mine:
                continue
            x = live & SUIT_MASKS[suit]
            value = 0.0
            while x:
                top = x.bit_length() - 1
                x ^= 1 << top
                if mine >> top & 1:
                    if top in found:
                        value = found[top]
                    out[top] = value
        return out

    # ------------------------------------------------------------------ the search
    def _load(self, pos: Position) -> None:
        self._hands = list(pos.hands)
        self._tricks = list(pos.tricks)
        self._nil = pos.nil
        self._broken = pos.broken
        self._turn = pos.turn
        self._n = len(pos.trick)
        self._on_table = 0
        self._lead_suit, self._win_card, self._win_seat = -1, -1, -1
        for seat, card in pos.trick:
            self._on_table |= 1 << card
            if self._win_card < 0:
                self._lead_suit, self._win_card, self._win_seat = card // 13, card, seat
            elif beats(card, self._win_card):
                self._win_card, self._win_seat = card, seat

    def _live(self) -> int:
        h = self._hands
        return h[0] | h[1] | h[2] | h[3] | self._on_table

    def _node(self, depth: int, alpha: float, beta: float) -> float:
        """The value with ``depth`` more tricks to start before the horizon (the trick
        on the table, if any, is finished first)."""
        hands = self._hands
        turn = self._turn
        key: tuple[Any, ...] | None = None
        need = 0
        if self._n == 0:
            left = hands[turn].bit_count()
            if left == 0:
                return self.score(tuple(self._tricks))
            if depth < 0:
                return self.estimate()
            need = _EXACT if depth >= left - 1 else depth
            t = self._tricks
            key = (hands[0], hands[1], hands[2], hands[3], turn, t[0], t[1], t[2], t[3],
                   self._broken)
            entry = self._table.get(key)
            if entry is not None and entry[0] >= need:
                low, high = entry[1], entry[2]
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
                alpha, beta = max(alpha, low), min(beta, high)
        alpha0, beta0 = alpha, beta
        legal = playable(hands[turn], self._lead_suit if self._n else None, self._broken)
        maximise = (turn & 1) == self.team
        best = -_INF if maximise else _INF
        for card in self._moves(legal):
            self.nodes += 1
            if self.nodes > self._limit:
                raise _Spent
            saved = self._play(card)
            value = self._node(depth - 1 if self._n == 0 else depth, alpha, beta)
            self._undo(card, saved)
            if maximise:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        if key is not None:
            if best <= alpha0:  # failed low: an upper bound
                self._table[key] = (need, -_INF, best)
            elif best >= beta0:  # failed high: a lower bound
                self._table[key] = (need, best, _INF)
            else:
                self._table[key] = (need, best, best)
        return best

    def _play(self, card: int) -> tuple[int, int, int, int, int, int, bool]:
        """Play ``card`` for the seat to play; what :meth:`_undo` needs to take it back."""
        turn, n = self._turn, self._n
        saved = (turn, n, self._on_table, self._lead_suit, self._win_card, self._win_seat,
                 self._broken)
        hands = self._hands
        hands[turn] = hands[turn] ^ (1 << card)
        if n == 0:
            self._lead_suit, self._win_card, self._win_seat = card // 13, card, turn
        elif beats(card, self._win_card):
            self._win_card, self._win_seat = card, turn
        if n == 3:
            winner = self._win_seat
            self._tricks[winner] += 1
            if self._win_card >= 39:  # a spade took the trick: spades are broken
                self._broken = True
            self._turn = winner
            self._n = 0
            self._on_table = 0
        else:
            self._on_table |= 1 << card
            self._turn = (turn + 1) & 3
            self._n = n + 1
        return saved

    def _undo(self, card: int, saved: tuple[int, int, int, int, int, int, bool]) -> None:
        turn, n, on_table, lead, win_card, win_seat, broken = saved
        if n == 3:  # the card ended a trick: its winner gives it back
            self._tricks[self._win_seat] -= 1
        self._turn, self._n, self._on_table = turn, n, on_table
        self._lead_suit, self._win_card, self._win_seat, self._broken = (lead, win_card,
                                                                        win_seat, broken)
        self._hands[turn] = self._hands[turn] ^ (1 << card)

    # ------------------------------------------------------------------ moves
    def _moves(self, legal: int) -> list[int]:
        """The legal cards worth searching (the highest of each run of equal cards), in
        the order most likely to cut the search short."""
        live = self._live()
        reps: list[int] = []
        for suit in range(4):
            mine = legal & SUIT_MASKS[suit]
            if not mine:
                continue
            x = live & SUIT_MASKS[suit]
            run = False
            while x:
                top = x.bit_length() - 1
                x ^= 1 << top
                if mine >> top & 1:
                    if not run:
                        reps.append(top)
                    run = True
                else:
                    run = False
        if len(reps) < 2:
            return reps
        if self._n == 0:  # lead: high cards first
            reps.sort(key=_rank_down)
            return reps
        win = self._win_card
        if self._win_seat == self._turn ^ 2:  # partner is winning: lowest first
            reps.sort(key=_rank_up)
            return reps
        winners = sorted((c for c in reps if beats(c, win)), key=_rank_up)
        losers = sorted((c for c in reps if not beats(c, win)), key=_rank_up)
        return winners + losers

    # ------------------------------------------------------------------ the horizon
    def estimate(self) -> float:
        """A position at a trick's start judged without searching: each seat takes its
        sure winners (the top run of every suit it holds, trumps included; a side suit's
        run no longer than an opponent can follow when the other may ruff), and the other
        tricks are shared in proportion to each seat's strength (two for a spade, one for
        an ace, a half for a king; a nil seat a quarter of it); the deal is scored on these
        expected counts (:meth:`_expected_score`)."""
        hands = self._hands
        left = hands[self._turn].bit_count()
        given = [0, 0, 0, 0]
        sure = 0
        for suit in range(4):
            mask = SUIT_MASKS[suit]
            held = [hands[0] & mask, hands[1] & mask, hands[2] & mask, hands[3] & mask]
            every = held[0] | held[1] | held[2] | held[3]
            if not every:
                continue
            top = every.bit_length() - 1
            owner = 0
            while not held[owner] >> top & 1:
                owner += 1
            mine = held[owner]
            run = 0
            while every and mine >> top & 1:
                run += 1
                every ^= 1 << top
                top = every.bit_length() - 1
            if suit != SPADES:  # a suit's winners stop when an opponent can ruff
                longest = max(held[owner ^ 1].bit_count(), held[owner ^ 3].bit_count())
                if any(held[s] == 0 and hands[s] & _SPADE_MASK for s in (owner ^ 1, owner ^ 3)):
                    run = min(run, longest)
            given[owner] += run
            sure += run
        if sure > left:  # more winners than tricks: keep the count, scaled down
            given = [g * left // sure for g in given]
            sure = given[0] + given[1] + given[2] + given[3]
        expect = [float(self._tricks[s] + given[s]) for s in range(4)]
        rest = left - sure
        if rest > 0:  # shared in proportion to strength
            strength = [0.0, 0.0, 0.0, 0.0]
            total = 0.0
            for seat in range(4):
                h = hands[seat]
                s = (2 * (h & _SPADE_MASK).bit_count() + (h & _ACES).bit_count()
                     + 0.5 * (h & _KINGS).bit_count() + 0.25)
                if self._nil[seat]:
                    s *= 0.25
                strength[seat] = s
                total += s
            for seat in range(4):
                expect[seat] += rest * strength[seat] / total
        return self._expected_score(expect)

    def _expected_score(self, expect: list[float]) -> float:
        """The score of fractional trick counts: each seat's count taken as its floor or
        ceiling in proportion (so the value moves smoothly with the counts, not in steps)."""
        low = [int(x) for x in expect]
        up = [x - int(x) for x in expect]
        score = self.score
        total = 0.0
        for combo in range(16):
            weight = 1.0
            tricks = [0, 0, 0, 0]
            for seat in range(4):
                if combo >> seat & 1:
                    weight *= up[seat]
                    tricks[seat] = low[seat] + 1
                else:
                    weight *= 1.0 - up[seat]
                    tricks[seat] = low[seat]
            if weight > 0.0:
                total += weight * score(tuple(tricks))
        return total


def _rank_down(card: int) -> int:
    return -(card % 13)


def _rank_up(card: int) -> int:
    return card % 13
