"""Clockwork Spades (Jamie Masculine): two players, a clock of spades, few choices.

The rules follow ``shared/seeds/clockwork-spades.en.md``; every reading where the text is
open is written, with its reason, in ``full-rules/en.md``.

The spades Ace to Queen lie on clock positions 1 to 12, the King of Spades in the centre
under the stock (the other 39 cards). Each turn is *due* on the next three occupied
positions clockwise. A player plays every card of a due rank onto its position; one who
can play nothing takes one of the due spades as a penalty. Kings drawn go to the opponent.
The game ends when a draw reaches the King of Spades (the drawer wins with all four
Kings) or when all twelve spades are taken; then fewer penalty spades win.

Automatic steps are not actions. The only decision in the game is *which due spade to
take*, so the action space is ``take 1`` .. ``take 12`` (actions ``0..11``). Everything
else (dealing, Kings passed, dead cards discarded, forced plays, drawing, a take with only
one spade due) happens inside :meth:`ClockworkState.apply` (and on :meth:`new`), and the
state always stops at the next real decision or at the end. Each automatic step is written
to a public *event log*; ``view(seat)["events"]`` holds the events since the turn of the
previous decision (or since the deal), so a table can narrate every step.

``Outcome.points`` are the penalty spades each player took (lower is better); the
placing says who won, which differs from the points when four Kings win.

Determinization keeps every card where the seat has seen it and redeals the rest so that
the world could have produced what the seat saw: a card a player kept through one of
their turns cannot be of a rank that was due (they would have had to play it) or dead
(it would have been discarded) on that turn. See :func:`feasible`.
"""

from __future__ import annotations

import copyreg
import heapq
import random
from typing import Any, Final

from mypy_extensions import mypyc_attr

from parlour.cards import (
    ACE,
    DECK,
    KING,
    SPADES,
    card_text,
    is_rank,
    is_spade,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)
from parlour.engine import (
    Action,
    Code,
    Game,
    IllegalAction,
    JsonDict,
    Many,
    Message,
    NotationError,
    Outcome,
    Param,
    PlayingCard,
    Seat,
    State,
    Term,
    ascii_int,
    check_action_range,
    position_fields,
    quoted,
    reduce_state,
    seeded_shuffle,
    shuffle,
)
from parlour.message import YOU, plural_message

# The constants of the hot path are Final: the compiled build uses them as constants rather
# than looking each up in the module's dict at every use.
NUM_ACTIONS: Final = 12  # action a takes the spade at position a + 1
POSITIONS: Final = tuple(range(1, 13))
HAND_SIZE: Final = 3
KING_OF_SPADES: Final = make_card(KING, SPADES)
SEAT_NAMES: Final = ("South", "North")

TAKE: Final = 0
OVER: Final = 1
PHASE_NAMES: Final = ("take", "over")


def position_of(card: int) -> int:
    """The clock position a card is played on: Ace 1, 2..10 as themselves, Jack 11,
    Queen 12; 0 for a King (Kings are never played)."""
    rank = rank_of(card)
    if rank == ACE:
        return 1
    if rank == KING:
        return 0
    return rank + 2


_POS: Final = tuple(position_of(c) for c in range(52))
SPADE_AT: Final = (-1, *(make_card(ACE if p == 1 else p - 2, SPADES) for p in POSITIONS))
STOCK_CARDS: Final = tuple(c for c in DECK if not is_spade(c))  # clubs, diamonds, hearts
_IS_KING: Final = tuple(is_rank(c, KING) for c in DECK)
_TO_ACT: Final = ((0,), (1,))

#: The kinds of event in the log, as :attr:`ClockworkState.events` names them; a logged
#: event is (its kind's index, its seat, its turn, what it names): see :func:`_event`.
EVENT_KINDS: Final = ("turn", "choose", "play", "dead", "king", "draw", "take",
                      "king_of_spades", "end")
EV_TURN: Final = 0
EV_CHOOSE: Final = 1
EV_PLAY: Final = 2
EV_DEAD: Final = 3
EV_KING: Final = 4
EV_DRAW: Final = 5
EV_TAKE: Final = 6
EV_KING_OF_SPADES: Final = 7
EV_END: Final = 8
LogEntry = tuple[int, Seat, int, Any]
_RANK_WORDS = {"a": 1, "ace": 1, "j": 11, "jack": 11, "q": 12, "queen": 12}


def card_order(card: int) -> tuple[int, int]:
    """Sort key: by clock position, then suit."""
    return (_POS[card], suit_of(card))


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass it
class ClockworkGame(Game):
    id = "clockwork-spades"
    name = "Clockwork Spades"
    min_seats = 2
    max_seats = 2
    default_seats = 2
    num_actions = NUM_ACTIONS
    options = ()

    def _new(self, seed: int, seats: int, options: dict[str, Any]) -> ClockworkState:
        return ClockworkState(self, seed, options)

    def seat_name(self, seat: Seat, seats: int = 2) -> str:
        return SEAT_NAMES[seat] if 0 <= seat < 2 else f"seat {seat}"

    def action_text(self, action: object) -> str:
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < 12:
            return f"take {action + 1}"
        raise NotationError("unknown {game} action {action}", game=Term("game", self.name),
                                action=Code(quoted(action)))

    def parse_action(self, text: str) -> Action:
        """``take 5`` (also ``5``, ``take QS``, ``take queen``, ``t 12``)."""
        t = " ".join(text.strip().lower().split())
        for prefix in ("take ", "t "):
            if t.startswith(prefix):
                t = t[len(prefix):].strip()
                break
        position: int | None = None
        if ascii_int(t) is not None:
            position = ascii_int(t)
        elif t in _RANK_WORDS:
            position = _RANK_WORDS[t]
        elif t.endswith("s") and len(t) >= 2:
            try:
                card = parse_card(t)
            except ValueError:
                card = -1
            if card == KING_OF_SPADES:
                raise NotationError("the King of Spades is in the centre, not on the clock: "
                                    "take a spade from a position 1 to 12")
            if card >= 0:
                position = _POS[card]
        if position is None or not 1 <= position <= 12:
            raise NotationError("not a Clockwork Spades action: {text} (expected 'take N' with N "
                                "a clock position from 1 to 12, like 'take 5')",
                                text=Code(quoted(text)))
        return position - 1


    def from_position(self, text: str, seed: int = 0) -> ClockworkState:
        """A game standing at the position ``text`` (see :func:`parse_position`), played on
        by the engine to the next decision: for tests, puzzles and analysis. It has no
        record of its own; ``seed`` is only its name."""
        position = parse_position(text)
        state = self.new(seed)
        assert isinstance(state, ClockworkState)
        state._set_position(position)
        return state


GAME = ClockworkGame()

# --------------------------------------------------------------------------- positions
#: The fields of a position's text, in the order it is written.
POSITION_FIELDS = ("hands", "stock", "clock", "taken", "kings", "discard", "pointer",
                   "to act", "step")


def _cards(text: str, what: str) -> list[int]:
    try:
        return [parse_card(t) for t in text.split() if t != "-"]
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None


def parse_position(text: str) -> JsonDict:
    """Read a position, written (FEN-like) as ``name: value`` fields separated by ``;`` or
    new lines, in any order::

        hands: 9C 10C JC | QC 8D 3D; stock: 4C 5C; clock: 5=5H 5D; taken: 2 | 7;
        kings: KH | -; discard: 7H; pointer: 3; to act: 0; step: start

    ``hands``: South's and North's cards (``|`` between them; at most three, no King).
    ``stock``: the cards on top of the King of Spades, the next drawn first. ``clock``:
    cards played on positions (``position=cards``, ``,`` between positions). ``taken``:
    the positions each seat took its penalty spade from. ``kings``: the Kings each holds.
    ``discard``: the discard pile. ``pointer``: the last position of the previous turn
    (12 by default, so the turn is due on 1, 2 and 3). ``to act``: the seat whose turn it
    is (0). ``step``: ``start`` (default: the turn begins, and the engine plays it, and
    the next ones, by itself up to a decision) or ``choose`` (the seat holds nothing due
    and picks one of the due spades now). The cards need not add up to the deck (a
    puzzle may use a few), but each is used once. A clear ``ValueError`` otherwise."""
    fields = position_fields(text, POSITION_FIELDS)

    def per_seat(name: str) -> list[str]:
        parts = fields.get(name, "- | -").split("|")
        if len(parts) != 2:
            raise ValueError(f"{name}: one for each seat, '|' between them")
        return parts

    hands = [_cards(h, "hands") for h in per_seat("hands")]
    if any(len(h) > HAND_SIZE or any(_IS_KING[c] for c in h) for h in hands):
        raise ValueError(f"hands: at most {HAND_SIZE} cards each, and no King")
    kings = [_cards(k, "kings") for k in per_seat("kings")]
    if not all(_IS_KING[c] and c != KING_OF_SPADES for k in kings for c in k):
        raise ValueError("kings: Kings of clubs, diamonds and hearts only")
    taken: list[list[int]] = []
    for words in per_seat("taken"):
        try:
            taken.append([int(w) for w in words.split() if w != "-"])
        except ValueError:
            raise ValueError(f"taken: positions 1 to 12, not {words.strip()!r}") from None
    clock: dict[int, list[int]] = {}
    for part in fields.get("clock", "").split(","):
        if part.strip() in ("", "-"):
            continue
        where, sep, cards = part.partition("=")
        if not sep or not where.strip().isdigit():
            raise ValueError(f"clock: {part.strip()!r} is not like 5=5H 5D")
        clock[int(where)] = _cards(cards, f"clock {where.strip()}")
    gone = [p for t in taken for p in t]
    if not all(1 <= p <= 12 for p in [*gone, *clock]) or len(set(gone)) != len(gone) \
            or set(gone) & set(clock):
        raise ValueError("taken and clock: positions 1 to 12, each taken at most once, and "
                         "no card on a position whose spade was taken")
    for p, placed in clock.items():
        if any(_POS[c] != p or is_spade(c) for c in placed):
            raise ValueError(f"clock {p}: only cards of that position's rank (no spade)")
    stock = _cards(fields.get("stock", "-"), "stock")
    discard = _cards(fields.get("discard", "-"), "discard")
    used = [c for h in hands for c in h] + [c for k in kings for c in k] + stock + discard \
        + [c for cards in clock.values() for c in cards]
    if any(is_spade(c) for c in used) or len(set(used)) != len(used):
        raise ValueError("every card is used once, and the spades are the clock's own")
    pointer, to_act, step = (fields.get("pointer", "12"), fields.get("to act", "0"),
                             fields.get("step", "start"))
    if not pointer.isdigit() or not 1 <= int(pointer) <= 12:
        raise ValueError(f"pointer: a position 1 to 12, not {pointer!r}")
    if to_act not in ("0", "1"):
        raise ValueError(f"'to act' is the seat 0 or 1, not {to_act!r}")
    if step not in ("start", "choose"):
        raise ValueError(f"step: start or choose, not {step!r}")
    return {"hands": hands, "stock": stock, "clock": clock, "taken": taken, "kings": kings,
            "discard": discard, "pointer": int(pointer), "to_act": int(to_act),
            "step": step}


def feasible(draws: list[int], items: list[tuple[int, int]]) -> bool:
    """Whether cards can be given to a player's draws consistently with what was seen.

    A player's draws fall into *epochs*: epoch ``k`` holds the ``draws[k]`` cards drawn
    after their ``k``-th turn check and before the next one. Each card is an interval
    ``(earliest, latest)`` of the epochs it may have been drawn in (``latest``: before it
    left the hand; ``earliest``: after the last check it could not have survived). A
    consistent assignment exists iff filling the epochs in order, each with the cards of
    earliest deadline available to it, never leaves a card past its deadline.
    """
    items = sorted(items)
    heap: list[int] = []
    i, n = 0, len(items)
    for k, need in enumerate(draws):
        while i < n and items[i][0] <= k:
            heapq.heappush(heap, items[i][1])
            i += 1
        if len(heap) < need:
            return False
        for _ in range(need):
            heapq.heappop(heap)
        if heap and heap[0] <= k:
            return False
    return i == n and not heap


class ClockworkState(State):
    """A game of Clockwork Spades. Public attributes are for reading; use ``apply``."""

    __slots__ = (
        "_built",
        "_checks",
        "_draws",
        "_left",
        "_legal",
        "_log_entries",
        "_moves",
        "_outcome",
        "_turn_start",
        "_window",
        "clock",
        "discard",
        "due",
        "end",
        "game",
        "hands",
        "kings",
        "num_seats",
        "options",
        "penalty",
        "phase",
        "pointer",
        "seat",
        "seed",
        "stock",
        "turn",
    )

    def __init__(self, game: Game, seed: int, options: dict[str, Any],
                 stock: list[int] | None = None, *, blank: bool = False) -> None:
        """A new game; ``stock`` (the 39 cards, top first) replaces the shuffle in tests."""
        self.game = game
        self.seed = seed
        self.num_seats = 2
        self.options = options
        if blank:  # a clone fills in the rest (a compiled class cannot skip __init__)
            return
        if stock is None:
            order = list(STOCK_CARDS)
            seeded_shuffle(order, seed, "stock")
        else:
            if sorted(stock) != list(STOCK_CARDS):
                raise ValueError("a stock is the 39 cards that are not spades, each once")
            order = stock[::-1]
        self.stock: list[int] = [KING_OF_SPADES, *order]  # drawn from the end
        self.hands: list[list[int]] = [[], []]
        self.kings: list[list[int]] = [[], []]
        self.clock: list[list[int] | None] = [None] + [[] for _ in POSITIONS]
        self.penalty: list[list[int]] = [[], []]
        self.discard: list[int] = []
        self._log_entries: list[LogEntry] = []  # the event log, as logged (see _log)
        self._built: list[JsonDict] = []  # the log's events built so far (see events)
        self._moves: list[tuple[Seat, Action]] = []
        self._draws: list[list[int]] = [[0], [0]]
        self._checks: list[list[int]] = [[], []]
        self._left: list[list[tuple[int, int]]] = [[], []]
        self._outcome: Outcome | None = None
        self.end: JsonDict | None = None
        self.phase = TAKE
        self.turn = 0
        self.seat = 0
        self.pointer = 12  # the first turn is due on 1, 2, 3
        self.due: tuple[int, ...] = ()
        self._legal: tuple[int, ...] = ()
        self._turn_start = 0
        self._window = 0
        for seat in (0, 1):  # the first player draws three, then the second
            for _ in range(HAND_SIZE):
                self._draw(seat)
        self._play_turns(0)

    # ------------------------------------------------------------------ positions
    def position_text(self) -> str:
        """The game at its decision as a position (see :func:`parse_position`, step
        ``choose``). The whole truth: not for bots."""
        if self.phase == OVER:
            raise ValueError("the game is over: there is no decision to write")

        def cards(cs: list[int]) -> str:
            return " ".join(card_text(c) for c in cs) or "-"

        clock = ", ".join(f"{p}={cards(pile)}" for p, pile in enumerate(self.clock)
                          if pile)
        taken = " | ".join(" ".join(str(SPADE_AT.index(c)) for c in pen) or "-"
                           for pen in self.penalty)
        return (f"hands: {cards(self.hands[0])} | {cards(self.hands[1])}; "
                f"stock: {cards(self.stock[:0:-1])}; clock: {clock or '-'}; "
                f"taken: {taken}; kings: {cards(self.kings[0])} | {cards(self.kings[1])}; "
                f"discard: {cards(self.discard)}; pointer: {self.pointer}; "
                f"to act: {self.seat}; step: choose")

    def _set_position(self, position: JsonDict) -> None:
        """Lay the game out as ``position`` says; play on to a decision from the start of
        the turn, or stop at the choice it names."""
        self.hands = [list(h) for h in position["hands"]]
        self.stock = [KING_OF_SPADES, *reversed(position["stock"])]
        self.kings = [list(k) for k in position["kings"]]
        self.clock = [None] + [list(position["clock"].get(p, [])) for p in POSITIONS]
        self.penalty = [[], []]
        for seat, positions in enumerate(position["taken"]):
            for p in positions:
                self.clock[p] = None
                self.penalty[seat].append(SPADE_AT[p])
        if all(p is None for p in self.clock):
            raise ValueError("taken: every spade is taken: the game is over")
        self.discard = list(position["discard"])
        self._log_entries, self._built, self._moves = [], [], []
        self._draws = [[len(self.hands[0])], [len(self.hands[1])]]
        self._checks, self._left = [[], []], [[], []]
        self.turn, self._window, self.pointer = 0, 0, position["pointer"]
        self._legal = ()
        seat = position["to_act"]
        if position["step"] == "start":
            self._play_turns(seat)
            return
        self.turn = 1
        self.seat = seat
        self.due = due = self.due_positions()
        if len(due) < 2 or len(self.hands[seat]) != HAND_SIZE or any(
                _POS[c] in due for c in self.hands[seat]):
            raise ValueError(f"step choose: the seat to act holds {HAND_SIZE} cards, none "
                             f"due, with a choice of spades (due: {list(due)})")
        self._turn_start = 0
        self._log(EV_TURN, seat, due)
        self._check(seat, sum(1 << p for p in due))
        self._legal = tuple(p - 1 for p in due)
        self._log(EV_CHOOSE, seat, due)

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[Seat, ...]:
        return () if self.phase == OVER else _TO_ACT[self.seat]

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def history(self) -> list[tuple[Seat, Action]]:
        return self._moves.copy()

    def legal_actions(self, seat: Seat | None = None) -> tuple[int, ...]:
        if seat is None or seat == self.seat:
            return self._legal
        return ()

    def apply(self, action: object, seat: object = None) -> None:
        turn_seat = self.seat
        if self.phase == OVER or (seat is not None and (type(seat) is not int
                                                          or seat != turn_seat)):
            self.acting_seat(seat)  # raises with the reason
        if type(action) is not int or action not in self._legal:
            raise IllegalAction(self._why_illegal(action))
        self._moves.append((turn_seat, action))
        self._window = self._turn_start
        if self._take(turn_seat, action + 1):
            self._end_turn(turn_seat)

    def _why_illegal(self, action: object) -> Message:
        try:
            action = check_action_range(self.game, action)
        except IllegalAction as err:
            return err.message
        position = action + 1
        due = Many(tuple(self.due))
        if self.clock[position] is None:
            return Message("position {position} is empty: its spade was taken (due: {due})",
                           position=position, due=due)
        return Message("position {position} is not due this turn: take one of the due spades "
                       "({due})", position=position, due=due)

    # ------------------------------------------------------------------ the turn
    def _log(self, kind: int, seat: Seat, what: object = None) -> None:
        """Log an event: its kind (an index of :data:`EVENT_KINDS`), seat and what it names
        (a card, the due positions...), built into its dict only when read
        (:attr:`events`): most states a search makes are never looked at."""
        self._log_entries.append((kind, seat, self.turn, what))

    @property
    def events(self) -> list[JsonDict]:
        """The public event log: every event since the deal, oldest first."""
        built, entries = self._built, self._log_entries
        for seq in range(len(built), len(entries)):
            built.append(_event(seq, entries[seq]))
        return built

    def due_positions(self) -> tuple[int, ...]:
        """The next three occupied positions clockwise after the pointer (all of them if
        fewer than three are occupied)."""
        clock, p = self.clock, self.pointer
        order = [q for q in range(p + 1, 13) if clock[q] is not None]
        if len(order) < 3:
            order += [q for q in range(1, p + 1) if clock[q] is not None]
        return tuple(order[:3])

    def _play_turns(self, seat: Seat) -> None:
        """Play automatic turns from ``seat``'s until a player must choose a spade or the
        game ends."""
        clock = self.clock
        while True:
            self.turn += 1
            self.seat = seat
            self.due = due = self.due_positions()
            self._turn_start = len(self._log_entries)
            self._log(EV_TURN, seat, due)
            if not self._discard_dead(seat):
                return
            due_mask = 0
            for p in due:
                due_mask |= 1 << p
            self._check(seat, due_mask)  # every card kept through this turn is not due
            hand = self.hands[seat]
            plays = [c for c in hand if 1 << _POS[c] & due_mask]
            if plays:
                leave = len(self._checks[seat]) - 1
                plays.sort()  # played in the order of the due positions, then by card
                for c in [c for p in due for c in plays if _POS[c] == p]:
                    hand.remove(c)
                    pile = clock[_POS[c]]
                    assert pile is not None  # a due position is occupied
                    pile.append(c)
                    self._left[seat].append((_POS[c], leave))
                    self._log(EV_PLAY, seat, c)
            elif len(due) > 1:
                self._legal = tuple(p - 1 for p in due)
                self._log(EV_CHOOSE, seat, due)
                return
            elif not self._take(seat, due[0]):
                return
            if not self._end_turn(seat, advance=False):
                return
            seat ^= 1

    def _end_turn(self, seat: Seat, advance: bool = True) -> bool:
        """Move the pointer past the turn's due positions and draw back up to three; with
        ``advance``, go on to the next turns. False if the game ended."""
        self.pointer = self.due[-1]
        hand = self.hands[seat]
        while len(hand) < HAND_SIZE:
            if not self._draw(seat):
                return False
        if advance:
            self._play_turns(seat ^ 1)
        return True

    def _check(self, seat: Seat, mask: int) -> None:
        """Note publicly that every card ``seat`` keeps now is of no position in ``mask``;
        the cards drawn after it form a new epoch (see :func:`feasible`)."""
        self._checks[seat].append(mask)
        self._draws[seat].append(0)

    def _discard_dead(self, seat: Seat) -> bool:
        """Discard each card whose spade has left the clock and draw a replacement (once:
        a replacement that is dead too waits for the next turn). False if a replacement
        reached the King of Spades."""
        hand, clock = self.hands[seat], self.clock
        dead_mask = 0
        for p in POSITIONS:
            if clock[p] is None:
                dead_mask |= 1 << p
        dead = [c for c in hand if 1 << _POS[c] & dead_mask]
        leave = len(self._checks[seat])
        self._check(seat, dead_mask)
        for c in dead:
            hand.remove(c)
            self.discard.append(c)
            self._left[seat].append((_POS[c], leave))
            self._log(EV_DEAD, seat, c)
        return all(self._draw(seat) for _ in dead)  # stops at the King of Spades

    def _draw(self, seat: Seat) -> bool:
        """Draw one card into ``seat``'s hand: Kings go to the opponent and are replaced.
        False if the draw reached the King of Spades (the game is then over)."""
        stock = self.stock
        while True:
            card = stock.pop()
            if card == KING_OF_SPADES:
                self._end_king_of_spades(seat)
                return False
            if _IS_KING[card]:
                self.kings[seat ^ 1].append(card)
                self._log(EV_KING, seat, card)
                continue
            self.hands[seat].append(card)
            self._draws[seat][-1] += 1
            self._log(EV_DRAW, seat, card)
            return True

    def _take(self, seat: Seat, position: int) -> bool:
        """``seat`` takes the spade at ``position``; False if that was the last one."""
        pile = self.clock[position]
        assert pile is not None
        self.clock[position] = None
        self.penalty[seat].append(SPADE_AT[position])
        self.discard.extend(pile)
        self._legal = ()
        self._log(EV_TAKE, seat, (position, tuple(pile)))
        if any(p is not None for p in self.clock):
            return True
        self._finish("all_spades", None)
        return False

    def _end_king_of_spades(self, seat: Seat) -> None:
        self.kings[seat].append(KING_OF_SPADES)
        self._log(EV_KING_OF_SPADES, seat)
        self._finish("king_of_spades", seat if len(self.kings[seat]) == 4 else None)

    def _finish(self, reason: str, four_kings: Seat | None) -> None:
        counts = (len(self.penalty[0]), len(self.penalty[1]))
        if four_kings is not None:
            placing = (1, 2) if four_kings == 0 else (2, 1)
        else:
            placing = (1, 2) if counts[0] < counts[1] else (2, 1) if counts[1] < counts[0] \
                else (1, 1)
        winner = None if placing == (1, 1) else placing.index(1)
        self.phase = OVER
        self._legal = ()
        self.due = ()
        self.end = {"reason": reason, "four_kings": four_kings, "penalties": list(counts),
                    "winner": winner}
        self._outcome = Outcome((float(counts[0]), float(counts[1])), placing)
        self._log(EV_END, -1 if winner is None else winner, (reason, four_kings, counts))

    # ------------------------------------------------------------------ views
    def view(self, seat: object) -> JsonDict:
        if seat is not None and not (type(seat) is int and 0 <= seat < 2):
            raise ValueError(f"there is no seat {seat!r} in Clockwork Spades")
        due = self.due
        clock = [{"position": p,
                  "spade": None if pile is None else card_text(SPADE_AT[p]),
                  "cards": [] if pile is None else [card_text(c) for c in pile],
                  "due": p in due}
                 for p, pile in zip(POSITIONS, self.clock[1:], strict=True)]
        hand = None
        if seat is not None:
            hand = [card_text(c) for c in sorted(self.hands[seat], key=card_order)]
        events = [ev if ev["kind"] != "draw" or ev["seat"] == seat or "card" not in ev
                  else _public(ev) for ev in self.events[self._window:]]
        return {
            "game": self.game.id,
            "seat": seat,
            "seats": 2,
            "seat_names": list(SEAT_NAMES),
            "options": dict(self.options),
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "to_act": list(self.to_act),
            "clock": clock,
            "due": list(due),
            "pointer": self.pointer,
            "hand": hand,
            "hand_sizes": [len(h) for h in self.hands],
            "penalty": [[card_text(c) for c in p] for p in self.penalty],
            "penalty_counts": [len(p) for p in self.penalty],
            "kings": [[card_text(c) for c in k] for k in self.kings],
            "stock_size": len(self.stock),
            "king_of_spades_in_stock": bool(self.stock) and self.stock[0] == KING_OF_SPADES,
            "discard": [card_text(c) for c in self.discard],
            "discard_size": len(self.discard),
            "events": events,
            "legal": [f"take {a + 1}" for a in self.legal_actions(seat)]
                     if seat is not None else [],
            "end": dict(self.end) if self.end else None,
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # ------------------------------------------------------------------ search support
    def clone(self) -> ClockworkState:
        new = ClockworkState(self.game, self.seed, self.options, blank=True)
        new.stock = self.stock.copy()
        new.hands = [self.hands[0].copy(), self.hands[1].copy()]
        new.kings = [self.kings[0].copy(), self.kings[1].copy()]
        new.clock = [None if p is None else p.copy() for p in self.clock]
        new.penalty = [self.penalty[0].copy(), self.penalty[1].copy()]
        new.discard = self.discard.copy()
        new._log_entries = self._log_entries.copy()  # entries never change once logged
        new._built = self._built.copy()
        new._moves = self._moves.copy()
        new._draws = [self._draws[0].copy(), self._draws[1].copy()]
        new._checks = [self._checks[0].copy(), self._checks[1].copy()]
        new._left = [self._left[0].copy(), self._left[1].copy()]
        new._outcome = self._outcome
        new.end = self.end
        new.phase = self.phase
        new.turn = self.turn
        new.seat = self.seat
        new.pointer = self.pointer
        new.due = self.due
        new._legal = self._legal
        new._turn_start = self._turn_start
        new._window = self._window
        return new

    def constraints(self, seat: Seat) -> tuple[list[int], list[tuple[int, int]], int]:
        """What anyone can infer about ``seat``'s hand: the draws per epoch, the epoch
        interval of each card that has left the hand, and the current epoch (the last
        epoch any card still held may come from). See :func:`feasible`."""
        checks = self._checks[seat]
        items = [(_earliest(checks, pos, leave), leave) for pos, leave in self._left[seat]]
        return self._draws[seat], items, len(checks)

    def hand_is_consistent(self, seat: Seat, hand: list[int]) -> bool:
        """Whether ``seat`` could hold ``hand`` now, given everything public."""
        draws, items, now = self.constraints(seat)
        checks = self._checks[seat]
        return feasible(draws, items + [(_earliest(checks, _POS[c], now), now) for c in hand])

    def determinize(self, seat: Seat | None, rng: random.Random) -> ClockworkState:
        new = self.clone()
        new.seed = rng.getrandbits(63)
        hidden = [s for s in (0, 1) if s != seat]
        in_stock = [c for c in self.stock if c != KING_OF_SPADES]
        pool = sorted(in_stock + [c for s in hidden for c in self.hands[s]])
        hands = self._sample_hands(hidden, pool, rng)
        chosen = {c for h in hands.values() for c in h}
        rest = [c for c in pool if c not in chosen]
        shuffle(rest, rng)
        new.stock = ([KING_OF_SPADES] if self.stock and self.stock[0] == KING_OF_SPADES
                     else []) + rest
        for s, h in hands.items():
            new.hands[s] = h
        new._log_entries = [(EV_DRAW, s, turn, None) if kind == EV_DRAW and s != seat
                            else (kind, s, turn, what)
                            for kind, s, turn, what in self._log_entries]
        new._built = []
        return new

    def _sample_hands(self, hidden: list[Seat], pool: list[int],
                      rng: random.Random) -> dict[Seat, list[int]]:
        """Random hands for the hidden seats, each one a hand that seat could hold.

        A depth-first search over the shuffled pool: a card is kept if the seat's draws can
        still be explained with it (the slots not yet filled count as cards that fit any
        epoch), so the first complete choice is consistent; backtracking makes the search
        complete (the true hands always fit)."""
        order = [c for c in pool if not _IS_KING[c]]
        shuffle(order, rng)
        slots = [s for s in hidden for _ in self.hands[s]]
        if not slots:
            return {s: [] for s in hidden}
        info = {s: self.constraints(s) for s in hidden}
        checks = {s: self._checks[s] for s in hidden}
        chosen: dict[Seat, list[tuple[int, int]]] = {s: [] for s in hidden}
        cards: dict[Seat, list[int]] = {s: [] for s in hidden}
        used: set[int] = set()

        def fits(s: Seat) -> bool:
            draws, items, now = info[s]
            wild = len(self.hands[s]) - len(chosen[s])
            return feasible(draws, items + chosen[s] + [(0, now)] * wild)

        def fill(k: int, start: int) -> bool:
            if k == len(slots):
                return True
            s = slots[k]
            if k and slots[k - 1] != s:
                start = 0  # a new seat: any card of the pool
            now = info[s][2]
            for i in range(start, len(order)):
                c = order[i]
                if c in used:
                    continue
                chosen[s].append((_earliest(checks[s], _POS[c], now), now))
                if fits(s):
                    used.add(c)
                    cards[s].append(c)
                    if fill(k + 1, i + 1):
                        return True
                    used.discard(c)
                    cards[s].pop()
                chosen[s].pop()
            return False

        if not fill(0, 0):
            raise ValueError("no deal of the unseen cards fits what is known")
        return cards

    def __repr__(self) -> str:
        return (f"<ClockworkState seed={self.seed} turn={self.turn} "
                f"phase={PHASE_NAMES[self.phase]} penalties="
                f"{[len(p) for p in self.penalty]}>")


copyreg.pickle(ClockworkState, reduce_state)  # how a state is pickled (see the engine)


def _earliest(checks: list[int], position: int, before: int) -> int:
    """The first epoch a card of ``position``'s rank may have been drawn in, if it was still
    held at check ``before``: after the last earlier check it could not have survived."""
    bit = 1 << position
    for j in range(before - 1, -1, -1):
        if checks[j] & bit:
            return j + 1
    return 0


def _event(seq: int, entry: LogEntry) -> JsonDict:
    """A logged event as the log shows it: its number, turn, kind and seat, then its own
    fields (a draw without its card is one a determinized state does not know)."""
    kind, seat, turn, what = entry
    event: JsonDict = {"seq": seq, "turn": turn, "kind": EVENT_KINDS[kind], "seat": seat}
    if kind == EV_TURN:
        event["due"] = list(what)
    elif kind == EV_CHOOSE:
        event["options"] = list(what)
    elif kind in (EV_PLAY, EV_DEAD):
        event["card"], event["position"] = card_text(what), _POS[what]
    elif kind == EV_KING:
        event["card"], event["to"] = card_text(what), seat ^ 1
    elif kind == EV_DRAW:
        if what is not None:
            event["card"] = card_text(what)
    elif kind == EV_TAKE:
        position, pile = what
        event["position"], event["spade"] = position, card_text(SPADE_AT[position])
        event["discarded"] = [card_text(c) for c in pile]
    elif kind == EV_KING_OF_SPADES:
        event["card"] = card_text(KING_OF_SPADES)
    else:
        reason, four_kings, counts = what
        winner = None if seat == -1 else seat
        event.update(reason=reason, four_kings=four_kings, penalties=list(counts),
                     winner=winner)
    return event


def _public(event: JsonDict) -> JsonDict:
    """A draw event as the other seat sees it: no card."""
    return {k: v for k, v in event.items() if k != "card"}


def describe_event(event: JsonDict,
                   names: tuple[Param, ...] | list[Param] = SEAT_NAMES) -> str:
    """One line of plain English for an event (for tables that narrate)."""
    return str(narrate_event(event, names))


def narrate_event(event: JsonDict,
                  names: tuple[Param, ...] | list[Param] = SEAT_NAMES) -> Message:
    """An event as a :class:`Message` (rendered in the reader's language by
    :func:`parlour.i18n.render`); ``names`` are the players' names, shown as given, and
    :data:`~parlour.message.YOU` for the reader's own seat (its lines say "You draw")."""
    kind, seat = event["kind"], event["seat"]
    who = names[seat] if 0 <= seat < len(names) else "nobody"
    you = who == YOU
    if kind == "turn":
        if you:
            return Message("Turn {turn}: you are due on {positions}.", turn=event["turn"],
                           positions=Many(tuple(event["due"])))
        return Message("Turn {turn}: {who} is due on {positions}.", turn=event["turn"], who=who,
                       positions=Many(tuple(event["due"])))
    if kind == "draw":
        card = event.get("card")
        if card:
            return (Message("You draw {card}.", card=_card(card)) if you
                    else Message("{who} draws {card}.", who=who, card=_card(card)))
        return Message("You draw a card.") if you else Message("{who} draws a card.", who=who)
    if kind == "king":
        other = names[event["to"]]
        if you:
            return Message("You draw {card} and pass it face up to {other}; you draw a "
                           "replacement.", card=_card(event["card"]), other=other)
        if other == YOU:
            return Message("{who} draws {card} and passes it face up to you; {who} draws a "
                           "replacement.", who=who, card=_card(event["card"]))
        return Message("{who} draws {card} and passes it face up to {other}; {who} draws a "
                       "replacement.", who=who, card=_card(event["card"]), other=other)
    if kind == "dead":
        if you:
            return Message("You discard {card}: the spade at {position} has left the clock. "
                           "You draw a replacement.", card=_card(event["card"]),
                           position=event["position"])
        return Message("{who} discards {card}: the spade at {position} has left the clock. "
                       "{who} draws a replacement.", who=who, card=_card(event["card"]),
                       position=event["position"])
    if kind == "play":
        if you:
            return Message("You play {card} on {position}.", card=_card(event["card"]),
                           position=event["position"])
        return Message("{who} plays {card} on {position}.", who=who, card=_card(event["card"]),
                       position=event["position"])
    if kind == "choose":
        if you:
            return Message("You can play nothing and must take one of {positions}.",
                           positions=Many(tuple(event["options"])))
        return Message("{who} can play nothing and must take one of {positions}.", who=who,
                       positions=Many(tuple(event["options"])))
    if kind == "take":
        gone = event["discarded"]
        spade, position = _card(event["spade"]), event["position"]
        if gone:
            cards = Many(tuple(_card(c) for c in gone), " ")
            if you:
                return Message("You take {spade} from {position} as a penalty; {cards} on it "
                               "go to the discard pile.", spade=spade, position=position,
                               cards=cards)
            return Message("{who} takes {spade} from {position} as a penalty; {cards} on it go "
                           "to the discard pile.", who=who, spade=spade, position=position,
                           cards=cards)
        if you:
            return Message("You take {spade} from {position} as a penalty.", spade=spade,
                           position=position)
        return Message("{who} takes {spade} from {position} as a penalty.", who=who,
                       spade=spade, position=position)
    if kind == "king_of_spades":
        if you:
            return Message("You draw the King of Spades: the stock is exhausted.")
        return Message("{who} draws the King of Spades: the stock is exhausted.", who=who)
    if kind == "end":
        pen = event["penalties"]
        if event["four_kings"] is not None:
            if you:
                return Message("You hold all four Kings and win.")
            return Message("{who} holds all four Kings and wins.", who=who)
        if event["winner"] is None:
            return plural_message("Drawn game: {penalties} penalty spade each.",
                                  "Drawn game: {penalties} penalty spades each.", "penalties",
                                  penalties=pen[0])
        if you:
            return plural_message("You win with {penalties} penalty spade to {other}.",
                                  "You win with {penalties} penalty spades to {other}.",
                                  "penalties", penalties=min(pen), other=max(pen))
        return plural_message("{who} wins with {penalties} penalty spade to {other}.",
                              "{who} wins with {penalties} penalty spades to {other}.",
                              "penalties", who=who, penalties=min(pen), other=max(pen))
    return Message("{who}: {kind}", who=who, kind=Code(kind))


def _card(code: str) -> PlayingCard:
    return PlayingCard(parse_card(code))


def _positions(ps: list[int]) -> str:
    return ", ".join(map(str, ps))


def say_action(view: JsonDict, action: str) -> Message:
    """A move in words, as a hint or a replay names it ("taking the 5S from position 5")."""
    position = GAME.parse_action(action) + 1
    return Message("taking the {card} from position {position}",
                   card=PlayingCard(SPADE_AT[position]), position=position)
