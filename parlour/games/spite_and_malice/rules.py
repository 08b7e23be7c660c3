"""Spite & Malice: two-player competitive patience, a match of rounds to 50 points.

The rules follow ``shared/seeds/spite-and-malice.en.md``; where the text is silent the
decisions are written (with reasons) in ``full-rules/en.md``.

Cards are *faces*: ``0..51`` as in :mod:`parlour.cards`, and :data:`JOKER` (52). The two
decks hold two copies of every face, which are indistinguishable, so the whole game is
played on faces (a pile or hand is a list of faces). For building, an ace counts 1, two to
queen 2..12, and a king (or joker) is wild (:data:`WILD`).

Actions (60), positional, with a short notation:

* ``h<i>>c<j>`` (``0..19``): the card in hand slot ``i`` (1-5) onto centre pile ``j`` (1-4);
* ``p>c<j>`` (``20..23``): the top of one's payoff pile onto centre pile ``j``;
* ``s<k>>c<j>`` (``24..39``): the top of one's side pile ``k`` (1-4) onto centre pile ``j``;
* ``h<i>>s<k>`` (``40..59``): the card in hand slot ``i`` onto one's side pile ``k``; this
  ends the turn.

A hand has five fixed *slots*. A card keeps its slot until it is played; drawn cards fill
the empty slots lowest first. Slots are not sorted: a sorted hand would make an action like
``h1>c2`` tell the opponent that every other card in the hand ranks at least as high as the
card just shown, and a public action must not carry hidden information.

Drawing is not an action: the player about to act always holds at least one card, because
the turn starts by drawing to five, an emptied hand is refilled at once, and a round ends
(drawn) when the stock cannot supply a card that is owed.
"""

from __future__ import annotations

import copyreg
import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from parlour.cards import ACE, KING, card_text, is_rank, parse_card, rank_of
from parlour.engine import (
    GAME_OVER,
    Action,
    Code,
    Game,
    IllegalAction,
    JsonDict,
    Message,
    NotationError,
    Option,
    Outcome,
    PlayingCard,
    SafetyStop,
    Seat,
    State,
    Term,
    ascii_int,
    check_action_range,
    placing_by,
    position_fields,
    quoted,
    reduce_state,
    seeded_shuffle,
    shuffle,
)
from parlour.message import N_, message_to_json, plural_message

JOKER: Final = 52
EMPTY: Final = -1
WILD: Final = 13
HAND_SIZE: Final = 5
SIDE_PILES: Final = 4
MAX_CENTRE: Final = 4
COMPLETE: Final = 12  # a centre pile is complete at the queen: twelve cards

HAND_TO_CENTRE: Final = 0  # + slot * 4 + pile
PAYOFF_TO_CENTRE: Final = 20  # + pile
SIDE_TO_CENTRE: Final = 24  # + side * 4 + pile
HAND_TO_SIDE: Final = 40  # + slot * 4 + side
NUM_ACTIONS: Final = 60

PLAYING: Final = 0
OVER: Final = 1
SEAT_NAMES: Final = ("South", "North")
RANK_TEXT: Final = ("-", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER_TEXT: Final = "Joker"


def _value(face: int) -> int:
    if face == JOKER or is_rank(face, KING):
        return WILD
    if is_rank(face, ACE):
        return 1
    return rank_of(face) + 2


#: Building value of each face: 1 (ace) .. 12 (queen), or WILD.
VALUE: Final[tuple[int, ...]] = tuple(_value(f) for f in range(JOKER + 1))
#: Order used to pick the first player: ace low .. queen, king, joker highest.
TOP_ORDER: Final[tuple[int, ...]] = tuple(
    14 if f == JOKER else 13 if VALUE[f] == WILD else VALUE[f] for f in range(JOKER + 1))
_FACE_TEXT: Final = (*(card_text(f) for f in range(52)), JOKER_TEXT)


def face_text(face: int) -> str:
    return _FACE_TEXT[face]


def parse_face(text: str) -> int:
    """``7H``, ``QS``, ``Joker``; a ``ValueError`` naming the problem otherwise."""
    if text.strip().lower() in ("joker", "jkr", "jo"):
        return JOKER
    return parse_card(text)


#: (n, turn, seat, kind, what): see _event. Typed as a tuple of any length, so compiled code
#: keeps each entry as the tuple it is (a typed five-tuple is unpacked when read and made
#: anew when stored, as the log's pruning at each turn does).
LogEntry = tuple[Any, ...]


def _log_event(entry: LogEntry) -> JsonDict:
    """A logged event as the view's log shows it: its number, turn, seat and kind, then its
    own fields."""
    n, turn, seat, kind, what = entry
    event: JsonDict = {"n": n, "turn": turn, "seat": seat, "kind": kind}
    if kind == "build":
        action, face, dst, stands = what
        event.update(action=_TEXT[action], card=_FACE_TEXT[face], centre=dst + 1,
                     stands_at=RANK_TEXT[stands])
    elif kind == "discard":
        action, face, dst = what
        event.update(action=_TEXT[action], card=_FACE_TEXT[face], side=dst + 1)
    elif kind == "draw":
        event["count"] = what
    elif kind == "complete":
        event.update(centre=what[0] + 1, stock=what[1])
    elif kind == "deal":
        event.update(round=what[0], first=what[1], tops=[_FACE_TEXT[f] for f in what[2]])
    elif kind == "redeal":
        event["tops"] = [_FACE_TEXT[f] for f in what]
    elif kind == "round over":  # the round's summary, its number last
        event.update((k, v) for k, v in what.items() if k != "round")
        event["round"] = what["round"]
    return event


_TWO_DECKS: Final = tuple(f for f in range(52) for _ in (0, 1))


def new_deck(jokers: int) -> list[int]:
    """Two standard decks (two of each face) and ``jokers`` jokers, in face order."""
    return [*_TWO_DECKS, *[JOKER] * jokers]


# --------------------------------------------------------------------------- actions
def payoff_to_centre(pile: int) -> Action:
    return PAYOFF_TO_CENTRE + pile


def hand_to_side(slot: int, side: int) -> Action:
    return HAND_TO_SIDE + slot * 4 + side


def decode(action: Action) -> tuple[str, int, int]:
    """``(kind, source, target)``: kind ``"hc"``, ``"pc"``, ``"sc"`` or ``"hs"``, and the
    0-based source (hand slot, side pile; 0 for the payoff) and target index."""
    if action < PAYOFF_TO_CENTRE:
        return "hc", action // 4, action % 4
    if action < SIDE_TO_CENTRE:
        return "pc", 0, action - PAYOFF_TO_CENTRE
    if action < HAND_TO_SIDE:
        a = action - SIDE_TO_CENTRE
        return "sc", a // 4, a % 4
    a = action - HAND_TO_SIDE
    return "hs", a // 4, a % 4


_DECODED: Final = tuple(decode(a) for a in range(NUM_ACTIONS))
_TEXT: Final = tuple(
    f"h{s + 1}>c{t + 1}" if k == "hc" else f"p>c{t + 1}" if k == "pc"
    else f"s{s + 1}>c{t + 1}" if k == "sc" else f"h{s + 1}>s{t + 1}"
    for k, s, t in _DECODED)
_PARSE: Final = {t: a for a, t in enumerate(_TEXT)}


def _by_piles(base: int) -> tuple[tuple[int, ...], ...]:
    """For every set of centre piles (a mask: bit ``j`` for pile ``j``), the actions
    ``base + j``, lowest pile first."""
    return tuple(tuple(base + j for j in range(MAX_CENTRE) if piles >> j & 1)
                 for piles in range(1 << MAX_CENTRE))


_HC: Final = tuple(_by_piles(HAND_TO_CENTRE + i * 4) for i in range(HAND_SIZE))
_PC: Final = _by_piles(PAYOFF_TO_CENTRE)
_SC: Final = tuple(_by_piles(SIDE_TO_CENTRE + k * 4) for k in range(SIDE_PILES))
_HS: Final = tuple(tuple(range(HAND_TO_SIDE + i * 4, HAND_TO_SIDE + i * 4 + 4))
                   for i in range(HAND_SIZE))
#: Each hand slot's bit (a table: compiled, a shift by a variable is a call).
_SLOT_BIT: Final = tuple(1 << i for i in range(HAND_SIZE))
_PILE_BIT: Final = tuple(1 << j for j in range(MAX_CENTRE))  # a centre pile's mask bit
#: For every set of held hand slots (a mask: bit ``i`` for slot ``i``), the discards of
#: them all (``_HS`` of each slot, lowest first).
_HS_HELD: Final = tuple(tuple(a for i in range(HAND_SIZE) if held >> i & 1 for a in _HS[i])
                        for held in range(1 << HAND_SIZE))


assert WILD + 1 == 14, "_fits writes its list of WILD + 1 zeros out"


def _fits(centre: list[list[int]], king_starts: bool) -> list[int]:
    """Indexed by building value (1..12, WILD): the centre piles (a mask) a card of that
    value may go on."""
    fits = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # WILD + 1 (a literal: no repeat call)
    for j in range(len(centre)):
        size = len(centre[j])
        bit = _PILE_BIT[j]  # (a table: a variable shift is a call, compiled)
        # (``x[i] = x[i] | y``: mypyc compiles ``x[i] |= y`` as generic code)
        fits[size + 1] = fits[size + 1] | bit
        if size or king_starts:
            fits[WILD] = fits[WILD] | bit
    return fits


_NOTATION_HELP: Final = Message(
    "expected a move like h3>c1 (hand card 3 to centre pile 1), p>c2 (payoff to centre 2), "
    "s2>c1 (side pile 2 to centre 1) or h5>s4 (hand card 5 to side pile 4, ending the turn)")


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass it
class SpiteAndMaliceGame(Game):
    id = "spite-and-malice"
    name = "Spite & Malice"
    min_seats = 2
    max_seats = 2
    default_seats = 2
    num_actions = NUM_ACTIONS
    options = (
        Option("target", int, 50, "points that win the match", minimum=1, maximum=500,
               label=N_("Points to win")),
        Option("payoff_size", int, 20, "cards in each payoff pile", minimum=1, maximum=30,
               label=N_("Payoff pile size")),
        Option("centre_piles", int, 3, "number of centre piles", choices=(3, 4),
               label=N_("Centre piles")),
        Option("jokers", int, 0, "jokers added to the two decks as extra wild cards",
               minimum=0, maximum=4, label=N_("Jokers")),
        Option("king_starts", bool, False,
               "a king (or joker) may start an empty centre pile, standing for the ace",
               label=N_("A king may start a pile")),
        Option("win_bonus", int, 0,
               "points a round winner scores on top of the opponent's payoff cards "
               "(5 in a common variant)", minimum=0, maximum=100, label=N_("Win bonus")),
        Option("max_turns", int, 400,
               "a round still going after this many turns is a draw",
               minimum=10, maximum=2000, label=N_("Most turns in a round")),
        Option("max_rounds", int, 60,
               "the game stops after this many rounds, and the higher score wins (equal: draw)",
               minimum=1, maximum=200, label=N_("Most rounds")),
    )

    def _new(self, seed: int, seats: int, options: dict[str, Any]) -> SpiteAndMaliceState:
        return SpiteAndMaliceState(self, seed, options)

    def seat_name(self, seat: Seat, seats: int = 2) -> str:
        return SEAT_NAMES[seat] if seat in (0, 1) else f"seat {seat}"

    def action_text(self, action: object) -> str:
        if isinstance(action, bool) or not isinstance(action, int) or not (
                0 <= action < NUM_ACTIONS):
            raise NotationError("unknown {game} action {action}", game=Term("game", self.name),
                                action=Code(quoted(action)))
        return _TEXT[action]

    def parse_action(self, text: str) -> Action:
        """Case, spaces and ``-`` for ``>`` are forgiven: ``H3 > C1``, ``h3 c1``, ``h3-c1``."""
        t = "".join(text.lower().replace("-", ">").split())
        if ">" not in t:
            # "h3c1", or "h3 c1" once the spaces are gone: split before the target letter
            for i in range(1, len(t)):
                if t[i] in "cs" and t[i - 1] != ">":
                    t = t[:i] + ">" + t[i:]
                    break
        action = _PARSE.get(t)
        if action is not None:
            return action
        src, _, dst = t.partition(">")
        def beyond(place: str, letter: str, last: int) -> bool:
            number = ascii_int(place[1:])
            return place[:1] == letter and number is not None and not 1 <= number <= last

        if beyond(src, "h", HAND_SIZE):
            raise NotationError("a hand slot is 1 to {last}, not {slot}", last=HAND_SIZE,
                                slot=Code(src[1:]))
        if beyond(src, "s", SIDE_PILES):
            raise NotationError("a side pile is 1 to {last}, not {pile}", last=SIDE_PILES,
                                pile=Code(src[1:]))
        if beyond(dst, "c", MAX_CENTRE):
            raise NotationError("a centre pile is 1 to {last}, not {pile}", last=MAX_CENTRE,
                                pile=Code(dst[1:]))
        if beyond(dst, "s", SIDE_PILES):
            raise NotationError("a side pile is 1 to {last}, not {pile}", last=SIDE_PILES,
                                pile=Code(dst[1:]))
        if src[:1] in ("p", "s") and dst[:1] == "s":
            raise NotationError("only a hand card may go onto a side pile")
        raise NotationError("not a Spite & Malice move: {text} ({expected})",
                            text=Code(quoted(text)), expected=_NOTATION_HELP)


    def from_position(self, text: str, seed: int = 0, **options: Any) -> SpiteAndMaliceState:
        """A match whose first round stands at the position ``text`` (see
        :func:`parse_position`), the player to act about to move: for tests, puzzles and
        analysis. ``seed`` keys what happens next (reshuffles, later rounds); the match
        has no record of its own, and its cards need not add up to the decks."""
        position = parse_position(text)
        state = self.new(seed, **options)
        assert isinstance(state, SpiteAndMaliceState)
        state._set_position(position)
        return state


GAME = SpiteAndMaliceGame()

# --------------------------------------------------------------------------- positions
#: The fields of a position's text, in the order it is written.
POSITION_FIELDS: Final = ("hands", "payoffs", "sides", "centre", "stock", "to act", "scores")


def _faces_text(faces: list[int]) -> str:
    return " ".join(_FACE_TEXT[f] for f in faces) or "-"


def _parse_faces(text: str, what: str) -> list[int]:
    try:
        return [parse_face(t) for t in text.split() if t != "-"]
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None


def _per_seat(fields: dict[str, str], name: str, default: str) -> list[str]:
    parts = fields.get(name, default).split("|")
    if len(parts) != 2:
        raise ValueError(f"{name}: one for each seat, '|' between them")
    return parts


def parse_position(text: str) -> JsonDict:
    """Read a position of a round, written (FEN-like) as ``name: value`` fields separated
    by ``;`` or new lines, in any order::

        hands: 7C - KD 2S 2S | AH 3H; payoffs: 3S 4S | 5D 5H 6H; sides: 2C, -, -, - | -,
        -, -, -; centre: AS 2D, -, -; stock: 4D 5D; to act: 0; scores: 10, 20

    ``hands``: South's and North's five slots (``-`` for an empty slot; missing slots are
    empty). ``payoffs`` (required), ``sides`` (four piles a seat, ``,`` between them),
    ``centre`` (one pile each, ``,`` between them) and ``stock``: cards bottom first (the
    top of a pile is its last card; the stock is drawn from its end); ``-`` for an empty
    pile. ``to act``: the seat to move (0), who holds a card. ``scores``: the match's so far
    (0 each). A clear ``ValueError`` for anything else."""
    fields = position_fields(text, POSITION_FIELDS)
    if "payoffs" not in fields:
        raise ValueError("a position needs its payoff piles ('payoffs: 9C 9D | 9H 9S')")
    hands = []
    for seat, words in enumerate(_per_seat(fields, "hands", "- | -")):
        slots = words.split()
        if len(slots) > HAND_SIZE:
            raise ValueError(f"hands: a hand has {HAND_SIZE} slots, not {len(slots)}")
        hand = [EMPTY if t == "-" else _parse_faces(t, f"hand {seat}")[0] for t in slots]
        hands.append(hand + [EMPTY] * (HAND_SIZE - len(hand)))
    payoffs = [_parse_faces(p, "payoffs") for p in _per_seat(fields, "payoffs", "")]
    if not all(payoffs):
        raise ValueError("payoffs: a payoff pile is never empty while a round goes on")
    sides = []
    for piles in _per_seat(fields, "sides", "-, -, -, - | -, -, -, -"):
        seat_piles = [_parse_faces(p, "sides") for p in piles.split(",")]
        if len(seat_piles) != SIDE_PILES:
            raise ValueError(f"sides: {SIDE_PILES} side piles a seat, ',' between them")
        sides.append(seat_piles)
    centre = [_parse_faces(p, "centre") for p in fields.get("centre", "-, -, -").split(",")]
    for j, pile in enumerate(centre):
        if len(pile) >= COMPLETE or any(VALUE[f] not in (WILD, i + 1)
                                         for i, f in enumerate(pile)):
            raise ValueError(f"centre: pile {j + 1} is not built up from the ace to the "
                             f"jack (a king or joker standing for any)")
    to_act = fields.get("to act", "0")
    if to_act not in ("0", "1"):
        raise ValueError(f"'to act' is the seat 0 or 1, not {to_act!r}")
    if all(f == EMPTY for f in hands[int(to_act)]):
        raise ValueError("the seat to act holds a card (an empty hand is refilled at once)")
    scores = [w.strip() for w in fields.get("scores", "0, 0").split(",")]
    if len(scores) != 2 or not all(w.isdigit() for w in scores):
        raise ValueError(f"scores are two whole numbers, not {fields['scores']!r}")
    return {"hands": hands, "payoffs": payoffs, "sides": sides, "centre": centre,
            "stock": _parse_faces(fields.get("stock", "-"), "stock"),
            "to_act": int(to_act), "scores": [int(w) for w in scores]}


class SpiteAndMaliceState(State):
    """A Spite & Malice match. Public attributes are for reading; change it with ``apply``.

    ``hands[s]`` is five slots (a face or :data:`EMPTY`); ``payoff[s]``, ``side[s][k]``,
    ``centre[j]`` and ``stock`` are lists of faces, bottom first (the stock is drawn from
    the end).
    """

    __slots__ = (
        "_legal",
        "_log",
        "_moves",
        "_outcome",
        "_past",
        "centre",
        "completed",
        "events",
        "first",
        "game",
        "hands",
        "num_seats",
        "options",
        "payoff",
        "phase",
        "redeals",
        "round",
        "rounds",
        "scores",
        "seed",
        "side",
        "stock",
        "turn",
        "turn_no",
        "turns",
    )
    # Fields whose type mypy cannot take from their first assignment (``round`` replaces the
    # base's read-only property).
    round: int
    turn: Seat
    hands: list[list[int]]
    payoff: list[list[int]]
    side: list[list[list[int]]]
    centre: list[list[int]]
    stock: list[int]
    _legal: tuple[Action, ...] | None  # None: not computed since the last change

    def __init__(self, game: Game, seed: int, options: dict[str, Any], *,
                 blank: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.num_seats = 2
        self.options = options
        if blank:  # a clone fills in the rest (a compiled class cannot skip __init__)
            return
        self._past: tuple[tuple[Seat, Action], ...] = ()  # the moves of finished rounds
        self._moves: list[tuple[Seat, Action]] = []
        self._outcome: Outcome | None = None
        self._log: list[LogEntry] = []  # the recent events, as logged (see _event)
        self.events = 0  # events logged so far in the match (numbers the log entries)
        self.turn_no = 0  # turns begun so far in the match (the log keeps the last two)
        self.scores = [0, 0]
        self.rounds: list[JsonDict] = []  # one summary per finished round
        self.phase = PLAYING
        self.round = 0
        self._start_round()

    # ------------------------------------------------------------------ positions
    def position_text(self) -> str:
        """The round as a position (see :func:`parse_position`), the player to act about to
        move. The whole truth: not for bots."""
        if self.phase == OVER:
            raise ValueError("the match is over: there is no round to write")
        hands = " | ".join(" ".join(_FACE_TEXT[f] if f != EMPTY else "-" for f in h)
                           for h in self.hands)
        sides = " | ".join(", ".join(_faces_text(p) for p in piles) for piles in self.side)
        return (f"hands: {hands}; "
                f"payoffs: {' | '.join(_faces_text(p) for p in self.payoff)}; "
                f"sides: {sides}; centre: {', '.join(_faces_text(p) for p in self.centre)}; "
                f"stock: {_faces_text(self.stock)}; to act: {self.turn}; "
                f"scores: {self.scores[0]}, {self.scores[1]}")

    def _set_position(self, position: JsonDict) -> None:
        """Lay the round out as ``position`` says, its player to act about to move."""
        if len(position["centre"]) != len(self.centre):
            raise ValueError(f"centre: this table has {len(self.centre)} centre piles, not "
                             f"{len(position['centre'])}")
        self.hands = [list(h) for h in position["hands"]]
        self.payoff = [list(p) for p in position["payoffs"]]
        self.side = [[list(p) for p in piles] for piles in position["sides"]]
        self.centre = [list(p) for p in position["centre"]]
        self.stock = list(position["stock"])
        self.scores = list(position["scores"])
        self.turn = position["to_act"]
        self._log = []
        self._legal = None

    # ------------------------------------------------------------------ dealing
    def _deal(self, attempt: int) -> None:
        deck = new_deck(self.options["jokers"])
        seeded_shuffle(deck, self.seed, "deal", self.round, attempt)
        n = self.options["payoff_size"]
        self.payoff = [deck[0:n], deck[n:2 * n]]
        self.hands = [deck[2 * n:2 * n + 5], deck[2 * n + 5:2 * n + 10]]
        self.stock = deck[2 * n + 10:]

    def _start_round(self) -> None:
        self.round += 1
        self._moves = []
        self.side = [[[] for _ in range(SIDE_PILES)] for _ in range(2)]
        self.centre = [[] for _ in range(self.options["centre_piles"])]
        self.completed = 0  # centre piles completed (and shuffled into the stock) this round
        self.turns = 0
        attempt = 0
        self._deal(attempt)
        while TOP_ORDER[self.payoff[0][-1]] == TOP_ORDER[self.payoff[1][-1]]:
            self._event(-1, "redeal", (self.payoff[0][-1], self.payoff[1][-1]))
            attempt += 1
            self._deal(attempt)
        self.redeals = attempt
        self.first = 0 if TOP_ORDER[self.payoff[0][-1]] > TOP_ORDER[self.payoff[1][-1]] else 1
        self._event(-1, "deal", (self.round, self.first,
                                 (self.payoff[0][-1], self.payoff[1][-1])))
        self._start_turn(self.first)

    def _start_turn(self, seat: Seat) -> None:
        """``seat`` draws to five and is to act, unless the round ends first."""
        self.turn = seat
        self._legal = None
        self.turns += 1
        self.turn_no += 1
        since: object = self.turn_no - 1  # (an object: the entries' turns are, so no int is
        # made for each comparison, compiled)
        self._log = [e for e in self._log if e[1] >= since]
        if self.turns > self.options["max_turns"]:
            self._end_round(None, "turn limit")
            return
        self._draw(seat)

    def _draw(self, seat: Seat) -> None:
        """Fill ``seat``'s empty slots from the stock, lowest first; end the round drawn
        if a card is owed and the stock is empty."""
        hand = self.hands[seat]
        stock = self.stock
        drew = 0
        for i in range(HAND_SIZE):
            if hand[i] == EMPTY:
                if not stock:
                    if drew:
                        self._event(seat, "draw", drew)
                    self._end_round(None, "stock exhausted")
                    return
                hand[i] = stock.pop()
                drew += 1
        if drew:
            self._event(seat, "draw", drew)

    def _event(self, seat: Seat, kind: str, what: object = None) -> None:
        """Log a public event, with what it names (a face, a count...), as it is: the view
        writes it out (:func:`_log_event`), and most states a search makes are never
        viewed. Deals belong to the turn that follows them."""
        self.events += 1
        turn = self.turn_no + 1 if kind == "deal" or kind == "redeal" else self.turn_no
        self._log.append((self.events, turn, seat, kind, what))

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[Seat, ...]:
        return () if self.phase == OVER else (self.turn,)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def history(self) -> list[tuple[Seat, Action]]:
        return [*self._past, *self._moves]

    def legal_actions(self, seat: Seat | None = None) -> tuple[int, ...]:
        if self.phase == OVER or (seat is not None and seat != self.turn):
            return ()
        legal = self._legal
        return self._compute_legal() if legal is None else legal

    def _compute_legal(self) -> tuple[Action, ...]:
        seat = self.turn
        hand = self.hands[seat]
        fits = _fits(self.centre, self.options["king_starts"])
        out: list[int] = []
        held = 0  # the hand's slots that hold a card (bit ``i`` for slot ``i``)
        # (a card that fits no pile adds nothing: most do not, and adding an empty tuple is
        # still a generic call, compiled)
        for i, face in enumerate(hand):
            if face != EMPTY:
                piles = fits[VALUE[face]]
                if piles:
                    out += _HC[i][piles]
                held += _SLOT_BIT[i]
        payoff = self.payoff[seat]
        if payoff:
            piles = fits[VALUE[payoff[-1]]]
            if piles:
                out += _PC[piles]
        for k, pile in enumerate(self.side[seat]):
            if pile:
                piles = fits[VALUE[pile[-1]]]
                if piles:
                    out += _SC[k][piles]
        out += _HS_HELD[held]  # (the discards of every held slot, as one tuple)
        self._legal = legal = tuple(out)
        return legal

    def apply(self, action: object, seat: object = None) -> None:
        turn = self.turn
        if seat is not None and (type(seat) is not int or seat != turn
                                 or self.phase == OVER):
            self.acting_seat(seat)  # raises with the reason
        if self.phase == OVER:
            raise IllegalAction(GAME_OVER)
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        # (the legal actions ascend, so a binary search finds one, where ``in`` compares
        # them one by one: 14,000 instructions of a compiled round)
        at = bisect_left(legal, action) if type(action) is int else len(legal)
        if at == len(legal) or legal[at] != action:
            raise IllegalAction(self._why_illegal(action, turn))
        self._moves.append((turn, action))
        self._legal = None
        kind, src, dst = _DECODED[action]
        hand = self.hands[turn]
        if kind == "hs":
            face = hand[src]
            hand[src] = EMPTY
            self.side[turn][dst].append(face)
            self._event(turn, "discard", (action, face, dst))
            self._start_turn(1 - turn)
            return
        if kind == "hc":
            face = hand[src]
            hand[src] = EMPTY
        elif kind == "pc":
            face = self.payoff[turn].pop()
        else:
            face = self.side[turn][src].pop()
        pile = self.centre[dst]
        pile.append(face)
        stands = len(pile)
        self._event(turn, "build", (action, face, dst, stands))
        if kind == "pc" and not self.payoff[turn]:
            self._end_round(turn, "payoff emptied")
            return
        if stands == COMPLETE:
            self._complete(dst)
        if kind == "hc" and all(f == EMPTY for f in hand):
            self._event(turn, "hand emptied")
            self._draw(turn)

    def _complete(self, j: int) -> None:
        """A finished centre pile is shuffled into the stock."""
        self.completed += 1
        self.stock.extend(self.centre[j])
        self.centre[j] = []
        seeded_shuffle(self.stock, self.seed, "reshuffle", self.round, self.completed)
        self._event(self.turn, "complete", (j, len(self.stock)))

    def _why_illegal(self, action: object, turn: Seat) -> Message:
        try:
            action = check_action_range(self.game, action)
        except IllegalAction as err:
            return err.message
        if self.phase == OVER:
            return GAME_OVER
        kind, src, dst = _DECODED[action]
        hand = self.hands[turn]
        if kind in ("hc", "hs") and hand[src] == EMPTY:
            return Message("hand slot {slot} is empty", slot=src + 1)
        if kind == "hs":  # not reached: every discard from a held card is legal
            return Message("that move is not allowed now")
        if dst >= len(self.centre):
            return Message("there is no centre pile {pile}: this table has {piles}",
                           pile=dst + 1, piles=len(self.centre))
        if kind == "hc":
            face = hand[src]
        elif kind == "pc":
            if not self.payoff[turn]:
                return Message("your payoff pile is empty")
            face = self.payoff[turn][-1]
        else:
            side = self.side[turn][src]
            if not side:
                return Message("side pile {pile} is empty", pile=src + 1)
            face = side[-1]
        pile = self.centre[dst]
        if VALUE[face] == WILD:
            if face == JOKER:
                return Message("a joker may not start an empty centre pile: centre pile {pile} "
                               "needs an ace", pile=dst + 1)
            return Message("a king may not start an empty centre pile: centre pile {pile} "
                           "needs an ace", pile=dst + 1)
        need = RANK_TEXT[len(pile) + 1]
        if need in ("A", "8"):
            return Message("centre pile {pile} needs an {rank}, not the {card}", pile=dst + 1,
                           rank=Term("rank-code", need), card=PlayingCard(face))
        return Message("centre pile {pile} needs a {rank}, not the {card}", pile=dst + 1,
                       rank=Term("rank-code", need), card=PlayingCard(face))

    # ------------------------------------------------------------------ rounds and match
    def _end_round(self, winner: Seat | None, reason: str) -> None:
        left = [len(p) for p in self.payoff]
        points = 0
        if winner is not None:
            points = left[1 - winner] + self.options["win_bonus"]
            self.scores[winner] += points
        summary = {"round": self.round, "first": self.first, "redeals": self.redeals,
                   "winner": winner, "reason": reason, "points": points,
                   "payoff_left": left, "turns": self.turns, "scores": list(self.scores)}
        self.rounds.append(summary)
        self._event(-1, "round over", summary)
        self._past += tuple(self._moves)
        self._moves = []
        self._legal = None
        a, b = self.scores
        target = self.options["target"]
        if max(a, b) >= target or self.round >= self.options["max_rounds"]:
            self.phase = OVER
            self._legal = ()
            self._outcome = Outcome((float(a), float(b)), placing_by((a, b)))
            return
        self._start_round()

    # ------------------------------------------------------------------ views
    def hand(self, seat: Seat) -> list[int]:
        """The faces in ``seat``'s hand (the whole truth: not for bots)."""
        return [f for f in self.hands[seat] if f != EMPTY]

    def all_cards(self) -> list[int]:
        """Every face in the match, wherever it lies (for invariants)."""
        out = self.hand(0) + self.hand(1) + self.stock
        for s in (0, 1):
            out += self.payoff[s]
            for pile in self.side[s]:
                out += pile
        for pile in self.centre:
            out += pile
        return out

    def view(self, seat: object) -> JsonDict:
        if seat is not None and not (type(seat) is int and 0 <= seat < 2):
            raise ValueError(f"there is no seat {seat!r} in Spite & Malice")
        over = self.phase == OVER
        legal = self.legal_actions(seat) if seat is not None else ()
        stopped = match_stop(self.options, self.scores, self.round, self._outcome)
        return {
            "game": self.game.id,
            "seat": seat,
            "seats": 2,
            "seat_names": list(SEAT_NAMES),
            "options": dict(self.options),
            "phase": "over" if over else "play",
            "round": self.round,
            "first": self.first,
            "redeals": self.redeals,
            "turn": self.turns,
            "to_act": list(self.to_act),
            "hand": None if seat is None else [
                None if f == EMPTY else face_text(f) for f in self.hands[seat]],
            "hand_sizes": [HAND_SIZE - h.count(EMPTY) for h in self.hands],
            "payoff": [{"top": face_text(p[-1]) if p else None, "size": len(p)}
                       for p in self.payoff],
            "side_piles": [[[_FACE_TEXT[f] for f in reversed(pile)] for pile in piles]
                           for piles in self.side],
            "centre": [{"cards": [_FACE_TEXT[f] for f in pile], "stands_at": len(pile),
                        "rank": RANK_TEXT[len(pile)], "needs": RANK_TEXT[len(pile) + 1]}
                       for pile in self.centre],
            "stock": len(self.stock),
            "completed": self.completed,
            "scores": list(self.scores),
            "target": self.options["target"],
            "rounds": [dict(r) for r in self.rounds],
            "log": [_log_event(e) for e in self._log],
            "legal": [_TEXT[a] for a in legal],
            "outcome": self._outcome.to_json() if self._outcome else None,
            "stopped": None if stopped is None else message_to_json(stopped),
        }

    @property
    def safety_stops(self) -> tuple[SafetyStop, ...]:
        """Rounds drawn by ``max_turns``; the match, if ``max_rounds`` ended it."""
        stops = [SafetyStop("max_turns", r["round"], False,
                            Message("Round {round} is drawn: the turn limit was reached.",
                                    round=r["round"]))
                 for r in self.rounds if r["reason"] == "turn limit"]
        stop = match_stop(self.options, self.scores, self.round, self._outcome)
        if stop is not None:
            stops.append(SafetyStop("max_rounds", self.round, True, stop))
        return tuple(stops)

    # ------------------------------------------------------------------ search support
    def clone(self) -> SpiteAndMaliceState:
        new = SpiteAndMaliceState(self.game, self.seed, self.options, blank=True)
        new._past = self._past
        new._moves = self._moves.copy()
        new._outcome = self._outcome
        new._log = self._log.copy()  # entries are never changed once logged
        new.events = self.events
        new.scores = self.scores.copy()
        new.rounds = self.rounds.copy()  # likewise
        new.phase = self.phase
        new.round = self.round
        new.first = self.first
        new.redeals = self.redeals
        new.turn = self.turn
        new.turns = self.turns
        new.turn_no = self.turn_no
        new.completed = self.completed
        new.hands = [h.copy() for h in self.hands]
        new.payoff = [p.copy() for p in self.payoff]
        new.side = [[p.copy() for p in piles] for piles in self.side]
        new.centre = [p.copy() for p in self.centre]
        new.stock = self.stock.copy()
        new._legal = self._legal
        return new

    def determinize(self, seat: Seat | None, rng: random.Random) -> SpiteAndMaliceState:
        """Redeal what ``seat`` has not seen: the other hand (into the same slots), the
        stock (size kept, order new) and both payoff piles under their face-up tops."""
        new = self.clone()
        new.seed = rng.getrandbits(63)
        if self.phase == OVER:
            return new
        hidden_hands = [s for s in (0, 1) if s != seat]
        pool = list(self.stock)
        for s in hidden_hands:
            pool += self.hand(s)
        for p in self.payoff:
            pool += p[:-1]
        pool.sort()
        shuffle(pool, rng)
        it = iter(pool)
        for s in hidden_hands:
            new.hands[s] = [EMPTY if f == EMPTY else next(it) for f in self.hands[s]]
        for s in (0, 1):
            p = self.payoff[s]
            if p:
                new.payoff[s] = [next(it) for _ in range(len(p) - 1)] + [p[-1]]
        new.stock = list(it)
        if self.turn in hidden_hands:
            new._legal = None  # computed again from the hand just redealt
        return new

    def __repr__(self) -> str:
        return (f"<SpiteAndMaliceState seed={self.seed} round={self.round} "
                f"turn={self.turns} scores={self.scores}>")


copyreg.pickle(SpiteAndMaliceState, reduce_state)  # how a state is pickled (see the engine)


def say_action(view: JsonDict, action: str) -> Message:
    """A move in words, as a hint or a replay names it ("playing 7H from the hand onto
    centre pile 2"): the card it moves, read from the view of the seat to make it, before
    the move (a card a move shows to everyone: on a centre or a side pile)."""
    kind, src, dst = _DECODED[GAME.parse_action(action)]
    me = view["seat"]
    face = (view["hand"][src] if kind in ("hc", "hs") else view["payoff"][me]["top"]
            if kind == "pc" else view["side_piles"][me][src][0])
    card = PlayingCard(parse_face(face))
    if kind == "hc":
        return Message("playing {card} from the hand onto centre pile {pile}", card=card,
                       pile=dst + 1)
    if kind == "pc":
        return Message("playing {card} from the payoff pile onto centre pile {pile}",
                       card=card, pile=dst + 1)
    if kind == "sc":
        return Message("playing {card} from side pile {side} onto centre pile {pile}",
                       card=card, side=src + 1, pile=dst + 1)
    return Message("putting {card} on side pile {side}: end of turn", card=card, side=dst + 1)
def match_stop(options: dict[str, Any], scores: Sequence[int], round: int,
               outcome: Outcome | None) -> Message | None:
    """What the players are told when the ``max_rounds`` safety stop ended the match
    (nobody reached the target): None while it goes on, or when the target ended it."""
    if outcome is None or max(scores) >= options["target"]:
        return None
    return plural_message("The match stops after {rounds} round, the most it may last: "
                          "nobody reached {target}, so the higher score wins, and equal "
                          "scores draw.", "The match stops after {rounds} rounds, the most "
                          "it may last: nobody reached {target}, so the higher score wins, "
                          "and equal scores draw.", "rounds", rounds=round,
                          target=options["target"])
