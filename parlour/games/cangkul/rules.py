"""Cangkul: follow suit or dig in the stock until you can; first out wins, last loses.

The rules, and every decision where the sources differ or are silent, are written in
``full-rules/en.md``. In short: 52 cards, ace high, no trumps; seven cards each, the rest a
face-down stock. The leader plays any card; each other player in turn follows the suit led,
or, holding none, draws from the stock one card at a time until a card of that suit comes,
and plays it. The highest card of the suit led takes the trick, which is set aside, and its
winner leads next. With the stock empty, a player who cannot follow passes (``skip``, the
default) or takes the trick's cards into hand and loses the turn (``take``); a card goes back
into a hand once a deal at most, so a trick holding a card taken before is passed, not taken,
and every ``take`` deal ends (see :meth:`CangkulState._set_legal`). A player whose hand
is empty is out; the last one holding cards loses the deal and deals the next. The match
ends when a player has lost ``losses`` deals.

Seats sit clockwise 0, 1, ...; play goes to the next seat number ("to the left").

Actions (55): ``0..51`` play that card (see :mod:`parlour.cards`); ``52`` draw from the
stock; ``53`` pass (cannot follow, the stock is empty; ``skip`` tables); ``54`` take the
trick's cards (the same, at ``take`` tables). A draw names no card: what was drawn is seen
by the drawer only. A seat's hand is a bit mask of cards.
"""

from __future__ import annotations

import copyreg
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from mypy_extensions import mypyc_attr

from parlour.cards import (
    SUIT_MASKS,
    SUIT_NAMES,
    card_text,
    cards_in,
    cards_of,
    hand_of,
    keyed_order,
    mask_of,
    parse_card,
    suit_cards_in,
    suit_of,
)
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
    check_action_range,
    plural_message,
    position_fields,
    quoted,
    reduce_state,
)
from parlour.message import N_, message_from_json, message_to_json
from parlour.sampling import deal_by_kind

DRAW: Final = 52
PASS: Final = 53
TAKE: Final = 54
NUM_ACTIONS: Final = 55

PLAYING: Final = 0
OVER: Final = 1
PHASE_NAMES: Final = ("play", "over")
#: What a player who cannot follow does once the stock is empty (the option's values).
EMPTY_STOCK: Final = ("skip", "take")
ALL_SUITS: Final = 0xF
#: The trick just ended: its ``(seat, card)`` plays, its winner and its taker (-1: none),
#: and its deal.
LastTrick = tuple[tuple[tuple[int, int], ...], int, int, int]


def deal_order(seed: int, deal: int) -> list[int]:
    """The 52 cards of a deal in the order they are dealt: a uniform shuffle keyed by seed
    and deal (:func:`parlour.cards.keyed_order`: 32-bit keys from SHAKE-128, ties in card
    order)."""
    return keyed_order(b"cangkul:%d:%d" % (seed, deal))


def seat_order(start: Seat, seats: int) -> list[Seat]:
    """Every seat once, clockwise from ``start``."""
    return [(start + i) % seats for i in range(seats)]


@mypyc_attr(allow_interpreted_subclasses=True)
class CangkulGame(Game):
    id = "cangkul"
    name = "Cangkul"
    min_seats = 2
    max_seats = 5
    default_seats = 4
    num_actions = NUM_ACTIONS
    options = (
        Option("losses", int, 3, "the match ends when a player has lost this many deals",
               minimum=1, maximum=20, label=N_("Lost deals that end the match")),
        Option("empty_stock", str, "skip", "once the stock is empty, a player who cannot "
               "follow suit passes (skip) or takes the trick's cards into hand, and the next "
               "player leads (take: a card goes back into a hand once a deal at most, so a "
               "trick holding one taken before is passed)", choices=EMPTY_STOCK,
               label=N_("Stock empty, cannot follow"),
               choice_labels=(N_("pass"), N_("take the trick's cards"))),
        Option("hand_size", int, 7, "cards dealt to each player", minimum=3, maximum=10,
               label=N_("Cards in a hand")),
        Option("max_turns", int, 1000, "a deal reaching this many moves ends: of the players "
               "still holding cards, whoever holds the most loses it", minimum=50,
               maximum=5000, label=N_("Most moves in a deal")),
        Option("max_deals", int, 100, "the match ends after this many deals: the fewest lost "
               "deals wins", minimum=1, maximum=500, label=N_("Most deals")),
    )

    def _new(self, seed: int, seats: int, options: dict[str, Any]) -> CangkulState:
        # (five hands of the most cards, 10, leave a stock of 2)
        return CangkulState(self, seed, seats, options)

    def action_text(self, action: object) -> str:
        if type(action) is int and 0 <= action < NUM_ACTIONS:
            return ACTION_TEXT[action]
        raise NotationError("unknown {game} action {action}", game=Term("game", self.name),
                            action=Code(quoted(action)))

    def parse_action(self, text: str) -> Action:
        t = " ".join(str(text).strip().lower().split())
        if t in ("draw", "d", "dig"):
            return DRAW
        if t in ("pass", "p", "skip"):
            return PASS
        if t in ("take", "t", "take trick"):
            return TAKE
        try:
            return parse_card(t)
        except ValueError:
            raise NotationError("not a Cangkul action: {text} (expected a card like QS or "
                                "10H, 'draw', 'pass' or 'take')",
                                text=Code(quoted(text))) from None

    def from_position(self, text: str, seed: int = 0, **options: Any) -> CangkulState:
        """A match standing at the start of a deal, before its lead: the position ``text``
        (see :func:`parse_position`). ``seed`` keys the later deals; the match has no
        record of its own."""
        position = parse_position(text)
        state = self.new(seed, len(position["hands"]), **options)
        assert isinstance(state, CangkulState)
        state._set_position(position)
        return state


GAME = CangkulGame()
ACTION_TEXT: Final = tuple([card_text(c) for c in range(52)] + ["draw", "pass", "take"])

# ----------------------------------------------------------------------------- positions
#: The fields of a position's text, in the order it is written.
POSITION_FIELDS: Final = ("hands", "stock", "dealer", "deal", "losses", "firsts")


def _numbers(text: str, seats: int, name: str) -> list[int]:
    words = [w.strip() for w in text.split(",")]
    if len(words) != seats or not all(w.isdigit() for w in words):
        raise ValueError(f"{name}: {seats} whole numbers from 0, one per seat, not {text!r}")
    return [int(w) for w in words]


def parse_position(text: str) -> JsonDict:
    """Read a position: the start of a deal, written (FEN-like) as ``name: value`` fields
    separated by ``;`` or new lines, in any order::

        hands: AS 7H ... | KD 2C ... | ...; stock: 9C 4D ...; dealer: 2; deal: 3;
        losses: 1, 0, 1; firsts: 0, 2, 0

    ``hands`` (required): each seat's cards, ``|`` between seats (2 to 5 seats, the same
    number of cards each); ``stock``: the stock, the top card (drawn first) first; every
    card of the deck is in one hand or the stock, once. ``dealer``: the seat that dealt (the
    last seat by default); ``deal``: its number in the match (1 by default); ``losses`` and
    ``firsts``: each seat's lost deals and deals won before it (0 by default)."""
    fields = position_fields(text, POSITION_FIELDS)
    if "hands" not in fields:
        raise ValueError("a position needs its hands ('hands: AS 7H ... | ... | ...')")
    try:
        hands = [[parse_card(c) for c in h.split()] for h in fields["hands"].split("|")]
        stock = [parse_card(c) for c in fields.get("stock", "").split()]
    except ValueError as err:
        raise ValueError(f"cards: {err}") from None
    seats = len(hands)
    if not 2 <= seats <= 5 or len({len(h) for h in hands}) != 1 or not hands[0]:
        raise ValueError("hands: 2 to 5 hands of the same number of cards, '|' between them")
    cards = [c for h in hands for c in h] + stock
    if len(cards) != 52 or len(set(cards)) != 52:
        raise ValueError("hands and stock: every card of the deck exactly once")
    dealer = fields.get("dealer", str(seats - 1))
    if not dealer.isdigit() or int(dealer) >= seats:
        raise ValueError(f"dealer is a seat from 0 to {seats - 1}, not {dealer!r}")
    deal = fields.get("deal", "1")
    if not deal.isdigit() or int(deal) < 1:
        raise ValueError(f"deal is a number from 1, not {deal!r}")
    zeros = ", ".join(["0"] * seats)
    return {"hands": [mask_of(h) for h in hands], "stock": stock[::-1],
            "dealer": int(dealer), "deal": int(deal),
            "losses": _numbers(fields.get("losses", zeros), seats, "losses"),
            "firsts": _numbers(fields.get("firsts", zeros), seats, "firsts")}


# ----------------------------------------------------------------------------- the state
class CangkulState(State):
    """A Cangkul match. Public attributes are for reading; change the state with ``apply``."""

    __slots__ = (
        "_dealt",
        "_fresh",
        "_legal",
        "_legal_mask",
        "_moves",
        "_outcome",
        "_past",
        "_to_answer",
        "deal",
        "dealer",
        "deals",
        "drawn",
        "firsts",
        "game",
        "hands",
        "known",
        "last_trick",
        "lead_suit",
        "leader",
        "losses",
        "num_seats",
        "options",
        "out",
        "phase",
        "seed",
        "stock",
        "taken",
        "trick",
        "tricks",
        "turn",
        "voids",
        "win_card",
        "win_seat",
    )
    _dealt: tuple[tuple[int, ...], tuple[int, ...]] | None  # the deal's hands and stock
    _fresh: Seat
    _legal: tuple[int, ...]
    _legal_mask: int
    _moves: list[tuple[Seat, Action]]
    _outcome: Outcome | None
    _past: tuple[tuple[tuple[Seat, Action], ...], ...]
    _to_answer: list[Seat]
    deal: int
    dealer: Seat
    deals: list[JsonDict]
    drawn: list[int]
    firsts: list[int]
    hands: list[int]
    known: list[int]
    last_trick: LastTrick | None
    lead_suit: int
    leader: Seat
    losses: list[int]
    out: list[Seat]
    phase: int
    stock: list[int]
    taken: int  # the cards taken back into a hand this deal (a mask): never taken again
    trick: list[tuple[Seat, int]]
    tricks: list[int]
    turn: Seat
    voids: list[int]
    win_card: int
    win_seat: Seat

    def __init__(self, game: Game, seed: int, seats: int, options: dict[str, Any], *,
                 blank: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.num_seats = seats
        self.options = options
        if blank:  # a clone fills in the rest (a compiled class cannot skip __init__)
            return
        self._past = ()
        self.losses = [0] * seats
        self.firsts = [0] * seats
        self.deals = []
        self._outcome = None
        self.last_trick = None
        self.deal = 0
        self._start_deal(seats - 1)

    # ------------------------------------------------------------------ positions
    def position_text(self) -> str:
        """The deal being played as a position (see :func:`parse_position`), as it stood
        when dealt. The whole truth: not for bots."""
        if self.phase == OVER:
            raise ValueError("the match is over: there is no deal to write")
        if self._dealt is None:
            raise ValueError("a determinization has no position of its own")
        hands, stock = self._dealt
        text = " | ".join(" ".join(card_text(c) for c in hand_of(h)) for h in hands)
        return (f"hands: {text}; stock: {' '.join(card_text(c) for c in stock[::-1])}; "
                f"dealer: {self.dealer}; deal: {self.deal}; "
                f"losses: {', '.join(map(str, self.losses))}; "
                f"firsts: {', '.join(map(str, self.firsts))}")

    def _set_position(self, position: JsonDict) -> None:
        if position["deal"] > self.options["max_deals"]:
            raise ValueError(f"deal {position['deal']} is past this match's max_deals "
                             f"({self.options['max_deals']})")
        sizes = {h.bit_count() for h in position["hands"]}
        if sizes != {self.options["hand_size"]}:
            raise ValueError(f"hands: {sorted(sizes)[0]} cards each, but this table deals "
                             f"{self.options['hand_size']} (the hand_size option)")
        self.losses = list(position["losses"])
        self.firsts = list(position["firsts"])
        if max(self.losses) >= self.options["losses"]:
            raise ValueError("losses: a player has already lost the match")
        self.deal = position["deal"] - 1
        self._start_deal(position["dealer"])
        self.hands = list(position["hands"])
        self.stock = list(position["stock"])
        self._dealt = (tuple(self.hands), tuple(self.stock))
        self._set_legal()

    # ------------------------------------------------------------------ dealing
    def _start_deal(self, dealer: Seat) -> None:
        n = self.num_seats
        self.deal += 1
        self.dealer = dealer
        size: int = self.options["hand_size"]
        order = deal_order(self.seed, self.deal)
        hands = [0] * n
        for i, seat in enumerate(seat_order(dealer + 1, n)):
            hands[seat] = mask_of(order[size * i: size * (i + 1)])
        self.hands = hands
        self.stock = order[size * n:][::-1]  # drawn from the end: the top is order[size * n]
        self._dealt = (tuple(hands), tuple(self.stock))
        self._moves = []
        self.phase = PLAYING
        self.turn = self.leader = (dealer + 1) % n
        self.trick = []
        self._to_answer = []
        self.lead_suit = -1
        self.win_card = -1
        self.win_seat = -1
        self.out = []
        self.tricks = [0] * n
        self.drawn = [0] * n
        self.known = [0] * n
        self.voids = [0] * n
        self.taken = 0
        self._fresh = -1
        self._set_legal()

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[Seat, ...]:
        return () if self.phase == OVER else (self.turn,)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def history(self) -> list[tuple[Seat, Action]]:
        return [m for deal in self._past for m in deal] + self._moves

    @property
    def round(self) -> int:
        return self.deal

    @property
    def in_deal(self) -> bool:
        """Whether the deal being played has seen a move (search judges such a state by
        the hands as well as the lost deals)."""
        return bool(self._moves)

    @property
    def to_answer(self) -> int:
        """How many players are still to answer the trick on the table after the one to
        act (0: it is the last)."""
        return len(self._to_answer)

    @property
    def empty_stock(self) -> str:
        """What a player who cannot follow does once the stock is empty: skip or take."""
        rule: str = self.options["empty_stock"]
        return rule

    def legal_actions(self, seat: Seat | None = None) -> tuple[int, ...]:
        if self.phase == PLAYING and (seat is None or seat == self.turn):
            return self._legal
        return ()

    def _set_legal(self) -> None:
        hand = self.hands[self.turn]
        if not self.trick:
            self._legal_mask = hand
            self._legal = cards_in(hand)
            return
        lead = self.lead_suit
        follow = hand & SUIT_MASKS[lead]
        if follow:
            self._legal_mask = follow
            self._legal = suit_cards_in(follow, lead)
        else:
            # A card goes back into a hand once a deal at most: a trick holding one taken
            # before is passed. Every take marks a card never taken before, so a deal has at
            # most 52 takes, and between them every finished trick sets its cards aside.
            action = DRAW if self.stock else TAKE if self._may_take() else PASS
            self._legal_mask = 1 << action
            self._legal = (action,)

    def _may_take(self) -> bool:
        return trick_may_be_taken(self.empty_stock, self.taken, self.trick)

    def apply(self, action: object, seat: object = None) -> None:
        turn = self.turn
        if seat is not None and (type(seat) is not int or seat != turn or self.phase == OVER):
            self.acting_seat(seat)  # raises with the reason
        if type(action) is not int or action < 0 or self.phase == OVER or \
                not self._legal_mask >> action & 1:
            raise IllegalAction(self._why_illegal(action, turn))
        act: int = action
        self._moves.append((turn, act))
        if act < 52:
            self._play(turn, act)
        elif act == DRAW:
            self._draw(turn)
        elif act == PASS:
            self._cannot_follow(turn)
            self._next_in_trick()
        else:
            self._take(turn)

    def _play(self, turn: Seat, card: int) -> None:
        hands = self.hands
        bit = 1 << card
        hands[turn] = hands[turn] ^ bit
        self.known[turn] = self.known[turn] & ~bit
        self._fresh = -1  # a card just drawn and played was the suit led
        if not self.trick:
            self.leader = self.win_seat = turn
            self.win_card = card
            self.lead_suit = suit_of(card)
            self._to_answer = [s for s in seat_order(turn + 1, self.num_seats)[:-1]
                               if hands[s]]
        elif suit_of(card) == self.lead_suit and card > self.win_card:
            self.win_card = card
            self.win_seat = turn
        self.trick.append((turn, card))
        if not hands[turn]:
            self.out.append(turn)
            if sum(1 for h in hands if h) <= 1:  # the last one holding cards has lost
                # (the trick is taken if nobody is left to answer it, else never finished)
                self._end_trick(-1 if self._to_answer else self.win_seat, None)
                self._end_deal(False)
                return
        self._next_in_trick()

    def _draw(self, turn: Seat) -> None:
        card = self.stock.pop()
        self.hands[turn] = self.hands[turn] | 1 << card
        self.drawn[turn] = self.drawn[turn] + 1
        self._cannot_follow(turn)
        self._fresh = turn
        self._turn_or_stop(turn)

    def _cannot_follow(self, turn: Seat) -> None:
        """What the others learn when ``turn`` draws, passes or takes: it held no card of
        the suit led. The card it drew last (if it was still unseen) turns out not to be of
        that suit, but may be of any other, so only that void is still known."""
        suit_bit = 1 << self.lead_suit
        if self._fresh == turn:
            self.voids[turn] = suit_bit
        else:
            self.voids[turn] = self.voids[turn] | suit_bit
        self._fresh = -1

    def _take(self, turn: Seat) -> None:
        """At a ``take`` table: the trick's cards go into ``turn``'s hand (everyone saw
        them), the trick ends without a winner, and the taker loses the turn: the next
        player to its left still holding cards leads."""
        self._cannot_follow(turn)
        taken = mask_of(c for _, c in self.trick)
        self.hands[turn] = self.hands[turn] | taken
        self.known[turn] = self.known[turn] | taken
        self.taken = self.taken | taken
        self._end_trick(-1, turn)
        hands = self.hands
        lead = (turn + 1) % self.num_seats
        while not hands[lead]:  # (the taker holds cards: this stops)
            lead = (lead + 1) % self.num_seats
        self.turn = lead
        self._turn_or_stop(lead)

    def _next_in_trick(self) -> None:
        answer = self._to_answer
        if answer:
            nxt = answer.pop(0)
            self.turn = nxt
            self._turn_or_stop(nxt)
            return
        winner = self.win_seat
        self._end_trick(winner, None)
        hands = self.hands
        lead = winner
        while not hands[lead]:  # the winner went out with the trick: the next still in leads
            lead = (lead + 1) % self.num_seats
        self.turn = lead
        self._turn_or_stop(lead)

    def _end_trick(self, winner: Seat, taker: Seat | None) -> None:
        if winner >= 0:
            self.tricks[winner] = self.tricks[winner] + 1
        self.last_trick = (tuple(self.trick), winner, -1 if taker is None else taker, self.deal)
        self.trick = []
        self._to_answer = []
        self.lead_suit = -1
        self.win_card = -1
        self.win_seat = -1

    def _turn_or_stop(self, seat: Seat) -> None:
        """``seat`` is to act, unless the deal has reached ``max_turns`` moves."""
        if len(self._moves) >= self.options["max_turns"]:
            self._end_deal(True)
            return
        self._set_legal()

    # ------------------------------------------------------------------ scoring
    def _end_deal(self, stopped: bool) -> None:
        """The deal is over: one player still holds cards and loses it, or ``stopped`` by
        the ``max_turns`` safety stop, after which whoever holds the most cards loses."""
        n = self.num_seats
        sizes = [h.bit_count() for h in self.hands]
        holding = [s for s in seat_order(self.dealer + 1, n) if sizes[s]]
        most = max(sizes)
        losers = [s for s in holding if sizes[s] == most]
        ranking = self.out + sorted(holding, key=lambda s: sizes[s])
        for s in losers:
            self.losses[s] = self.losses[s] + 1
        if self.out:
            self.firsts[self.out[0]] = self.firsts[self.out[0]] + 1
        self.deals.append({
            "deal": self.deal, "dealer": self.dealer, "out": list(self.out),
            "ranking": ranking, "losers": losers, "cards_left": sizes,
            "tricks": list(self.tricks), "drawn": list(self.drawn),
            "losses": list(self.losses),
            "stopped": message_to_json(deal_stop(self.deal, len(self._moves)))
            if stopped else None,
        })
        self._past += (tuple(self._moves),)
        if max(self.losses) >= self.options["losses"] or \
                self.deal >= self.options["max_deals"]:
            self._finish()
            return
        self._start_deal(losers[0])  # the loser deals the next

    def _finish(self) -> None:
        self.phase = OVER
        self._moves = []
        self.trick = []
        self._to_answer = []
        self._legal = ()
        self._legal_mask = 0
        self.turn = -1
        self._outcome = Outcome(tuple(float(x) for x in self.losses),
                                match_placing(self.losses, self.firsts))

    @property
    def safety_stops(self) -> tuple[SafetyStop, ...]:
        """Deals ended by ``max_turns``; the match, if ``max_deals`` ended it."""
        stops = [SafetyStop("max_turns", d["deal"], False, message_from_json(d["stopped"]))
                 for d in self.deals if d["stopped"]]
        stop = match_stop(self.options, self.losses, self.deal, self._outcome)
        if stop is not None:
            stops.append(SafetyStop("max_deals", self.deal, True, stop))
        return tuple(stops)

    # ------------------------------------------------------------------ explanations
    def _why_illegal(self, action: object, turn: Seat) -> Message:
        try:
            act = check_action_range(self.game, action)
        except IllegalAction as err:
            return err.message
        if self.phase == OVER:
            return GAME_OVER
        hand = self.hands[turn]
        can_follow = bool(self.trick) and bool(hand & SUIT_MASKS[self.lead_suit])
        suit = Term("suit", SUIT_NAMES[self.lead_suit]) if self.trick else None
        if act < 52:
            if not hand >> act & 1:
                return Message("you do not hold {card}", card=PlayingCard(act))
            assert suit is not None  # a held card is refused only when a suit was led
            if can_follow:
                return Message("must follow {suit}", suit=suit)
            return cannot_follow_reason(self.lead_suit, bool(self.stock), self.empty_stock,
                                        self._may_take())
        if suit is None:
            return Message("you lead this trick: play any card")
        if can_follow:
            return Message("you can follow {suit}: play one", suit=suit)
        if act == DRAW:
            return Message("the stock is empty")
        if self.stock:
            return Message("the stock is not empty: draw until you can follow {suit}",
                           suit=suit)
        if act == PASS:
            return Message("at this table a player who cannot follow takes the trick's cards")
        if self.empty_stock == "take":
            return Message("a card of this trick was taken back into a hand before: pass")
        return Message("at this table a player who cannot follow passes")

    # ------------------------------------------------------------------ views
    def seen(self, seat: Seat | None) -> CangkulSeen:
        """Everything ``seat`` may see (None: a spectator), as compact facts: the one place
        that decides what a seat sees. :meth:`view` is built from them alone
        (:func:`view_of`), and the learning environments encode them."""
        # (once the match is over, the table stays as its last deal left it)
        return CangkulSeen(
            seat=seat, options=self.options, seats=self.num_seats, phase=self.phase,
            deal=self.deal, dealer=self.dealer, to_act=self.to_act,
            hand=self.hands[seat] if seat is not None else -1,
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            stock_size=len(self.stock), leader=self.leader if self.trick else -1,
            trick=tuple(self.trick), win_seat=self.win_seat,
            moves=tuple(self._moves), known=tuple(self.known), voids=tuple(self.voids),
            out=tuple(self.out), tricks=tuple(self.tricks), drawn=tuple(self.drawn),
            taken=self.taken,
            losses=tuple(self.losses), firsts=tuple(self.firsts), deals=tuple(self.deals),
            last_trick=self.last_trick,
            legal=self.legal_actions(seat) if seat is not None else (),
            outcome=self._outcome)

    def view(self, seat: object) -> JsonDict:
        if seat is not None and not (type(seat) is int and 0 <= seat < self.num_seats):
            raise ValueError(f"there is no seat {seat!r} in this game of Cangkul")
        return view_of(self.seen(seat))

    # ------------------------------------------------------------------ search support
    def hand(self, seat: Seat) -> list[int]:
        return cards_of(self.hands[seat])

    def clone(self) -> CangkulState:
        new = CangkulState(self.game, self.seed, self.num_seats, self.options, blank=True)
        new._past = self._past
        new._moves = self._moves.copy()
        new._outcome = self._outcome
        new._fresh = self._fresh
        new._legal = self._legal
        new._legal_mask = self._legal_mask
        new._to_answer = self._to_answer.copy()
        new.deal = self.deal
        new.dealer = self.dealer
        new.deals = self.deals.copy()  # entries are never changed once appended
        new.drawn = self.drawn.copy()
        new.firsts = self.firsts.copy()
        new.hands = self.hands.copy()
        new.known = self.known.copy()
        new.last_trick = self.last_trick  # replaced, never changed
        new.lead_suit = self.lead_suit
        new.leader = self.leader
        new.losses = self.losses.copy()
        new.out = self.out.copy()
        new.phase = self.phase
        new.stock = self.stock.copy()
        new.taken = self.taken
        new.trick = self.trick.copy()
        new.tricks = self.tricks.copy()
        new.turn = self.turn
        new.voids = self.voids.copy()
        new.win_card = self.win_card
        new.win_seat = self.win_seat
        new._dealt = self._dealt
        return new

    def determinize(self, seat: Seat | None, rng: random.Random) -> CangkulState:
        """Redeal what ``seat`` has not seen: the stock and the other hands' unseen cards,
        keeping the cards each player is known to hold (taken from a trick) and the suits
        each has shown it lacks (the card a player has just drawn may be of any suit)."""
        new = self.clone()
        new.seed = rng.getrandbits(63)
        if self.phase == OVER:
            return new
        n = self.num_seats
        hidden = [s for s in range(n) if s != seat]
        pool = list(self.stock)
        sizes: list[int] = []
        allowed: list[int] = []
        for s in hidden:
            unknown = self.hands[s] & ~self.known[s]
            pool += cards_of(unknown)
            fresh = 1 if self._fresh == s else 0
            sizes += [unknown.bit_count() - fresh, fresh]
            allowed += [ALL_SUITS & ~self.voids[s], ALL_SUITS]
        sizes.append(len(self.stock))
        allowed.append(ALL_SUITS)
        dealt = deal_by_kind(pool, sizes, rng, suit_of, allowed)
        for i, s in enumerate(hidden):
            new.hands[s] = self.known[s] | mask_of(dealt[2 * i]) | mask_of(dealt[2 * i + 1])
        new.stock = dealt[-1]
        new._dealt = None  # the deal as it really was is not for a determinization
        new._set_legal()
        return new

    def __repr__(self) -> str:
        return (f"<CangkulState seed={self.seed} deal={self.deal} "
                f"phase={PHASE_NAMES[self.phase]} losses={self.losses}>")


copyreg.pickle(CangkulState, reduce_state)  # how a state is pickled (see the engine)


def match_placing(losses: Sequence[int], firsts: Sequence[int]) -> tuple[int, ...]:
    """Places at the end of a match: fewer lost deals first; equal, more deals won (out
    first) first; equal in both, a shared place."""
    keys = [(losses[s], -firsts[s]) for s in range(len(losses))]
    return tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)


def trick_may_be_taken(rule: str, taken: int, trick: Sequence[tuple[Seat, int]]) -> bool:
    """Whether a player who cannot follow, the stock empty, takes the trick (else passes):
    at a ``take`` table, when no card of the trick was taken back into a hand before
    (``taken``, a mask). The one place of the rule for the state and for a seat's view."""
    return rule == "take" and not taken & mask_of(c for _, c in trick)


def cannot_follow_reason(lead_suit: int, stock: bool, rule: str,
                         may_take: bool = True) -> Message:
    """Why a held card may not be played by a player holding no card of ``lead_suit``
    (``may_take``: at a ``take`` table, no card of the trick was taken before)."""
    suit = Term("suit", SUIT_NAMES[lead_suit])
    if stock:
        return Message("you hold no {suit}: draw from the stock until one comes", suit=suit)
    if rule == "take" and not may_take:
        return Message("you hold no {suit} and the stock is empty, and a card of this trick "
                       "was taken back before: pass", suit=suit)
    if rule == "skip":
        return Message("you hold no {suit} and the stock is empty: pass", suit=suit)
    return Message("you hold no {suit} and the stock is empty: take the trick's cards",
                   suit=suit)


def deal_stop(deal: int, moves: int) -> Message:
    """What the players are told when a deal reaches the ``max_turns`` safety stop."""
    return Message("Deal {deal} reached {moves} moves, the most a deal may last, and ends: of "
                   "the players still holding cards, whoever holds the most loses it.",
                   deal=deal, moves=moves)


def match_stop(options: dict[str, Any], losses: Sequence[int], deal: int,
               outcome: Outcome | None) -> Message | None:
    """What the players are told when the ``max_deals`` safety stop ended the match (nobody
    lost enough deals): None while it goes on, or when the rules ended it."""
    if outcome is None or max(losses) >= options["losses"]:
        return None
    return plural_message("The match stops after {deals} deal, the most it may last, before "
                          "anyone lost {losses}: the fewest lost deals wins.",
                          "The match stops after {deals} deals, the most it may last, before "
                          "anyone lost {losses}: the fewest lost deals wins.", "deals",
                          deals=deal, losses=options["losses"])


# ----------------------------------------------------------------------------- the view
@dataclass(init=False)
class CangkulSeen:
    """What one seat may see of a Cangkul match (``seat`` None: a spectator), as compact
    facts: cards as ints, seats as ints, no text. Built by :meth:`CangkulState.seen`;
    :func:`view_of` turns it into the view. Read, never changed; its ``__init__`` is
    written out, as Spades' is (:class:`parlour.games.spades.rules.SpadesSeen` says why)."""

    seat: Seat | None
    options: dict[str, Any]
    seats: int
    phase: int
    deal: int
    dealer: Seat
    to_act: tuple[Seat, ...]
    hand: int  # the seat's cards as a bit mask; -1 for a spectator
    hand_sizes: tuple[int, ...]
    stock_size: int
    leader: Seat  # who led the trick on the table; -1 when none is
    trick: tuple[tuple[Seat, int], ...]
    win_seat: Seat  # who is winning the trick on the table
    moves: tuple[tuple[Seat, int], ...]  # this deal's actions (draws name no card)
    known: tuple[int, ...]  # per seat, cards it is known to hold (taken from a trick)
    voids: tuple[int, ...]  # per seat, suits (bits) it has shown it lacks
    out: tuple[Seat, ...]  # this deal's players out, in the order they went out
    tricks: tuple[int, ...]  # tricks won this deal
    drawn: tuple[int, ...]  # cards drawn this deal
    taken: int  # cards taken back into a hand this deal (a mask), never taken again
    losses: tuple[int, ...]  # deals lost in the match
    firsts: tuple[int, ...]  # deals won (first out) in the match
    deals: tuple[JsonDict, ...]
    last_trick: LastTrick | None
    legal: tuple[int, ...]
    outcome: Outcome | None

    def __init__(self,
                 seat: Seat | None,
                 options: dict[str, Any],
                 seats: int,
                 phase: int,
                 deal: int,
                 dealer: Seat,
                 to_act: tuple[Seat, ...],
                 hand: int,
                 hand_sizes: tuple[int, ...],
                 stock_size: int,
                 leader: Seat,
                 trick: tuple[tuple[Seat, int], ...],
                 win_seat: Seat,
                 moves: tuple[tuple[Seat, int], ...],
                 known: tuple[int, ...],
                 voids: tuple[int, ...],
                 out: tuple[Seat, ...],
                 tricks: tuple[int, ...],
                 drawn: tuple[int, ...],
                 taken: int,
                 losses: tuple[int, ...],
                 firsts: tuple[int, ...],
                 deals: tuple[JsonDict, ...],
                 last_trick: LastTrick | None,
                 legal: tuple[int, ...],
                 outcome: Outcome | None) -> None:
        self.seat = seat
        self.options = options
        self.seats = seats
        self.phase = phase
        self.deal = deal
        self.dealer = dealer
        self.to_act = to_act
        self.hand = hand
        self.hand_sizes = hand_sizes
        self.stock_size = stock_size
        self.leader = leader
        self.trick = trick
        self.win_seat = win_seat
        self.moves = moves
        self.known = known
        self.voids = voids
        self.out = out
        self.tricks = tricks
        self.drawn = drawn
        self.taken = taken
        self.losses = losses
        self.firsts = firsts
        self.deals = deals
        self.last_trick = last_trick
        self.legal = legal
        self.outcome = outcome


def _cards(mask: int) -> list[str]:
    return [card_text(c) for c in hand_of(mask)]


def view_of(seen: CangkulSeen) -> JsonDict:
    """The JSON-ready view of what a seat sees, from its facts alone."""
    seat = seen.seat
    stopped = match_stop(seen.options, seen.losses, seen.deal, seen.outcome)
    last = seen.last_trick
    return {
        "game": "cangkul",
        "seat": seat,
        "seats": seen.seats,
        "options": dict(seen.options),
        "phase": PHASE_NAMES[seen.phase],
        "deal": seen.deal,
        "dealer": seen.dealer,
        "to_act": list(seen.to_act),
        "hand": None if seen.hand < 0 else _cards(seen.hand),
        "hand_sizes": list(seen.hand_sizes),
        "stock_size": seen.stock_size,
        "leader": seen.leader if seen.leader >= 0 else None,
        "lead_suit": SUIT_NAMES[seen.trick[0][1] // 13] if seen.trick else None,
        "trick": [{"seat": s, "card": card_text(c)} for s, c in seen.trick],
        "winning": seen.win_seat if seen.trick else None,
        "last_trick": None if last is None else {
            "cards": [{"seat": s, "card": card_text(c)} for s, c in last[0]],
            "winner": last[1] if last[1] >= 0 else None,
            "taker": last[2] if last[2] >= 0 else None, "deal": last[3]},
        "moves": [[s, ACTION_TEXT[a]] for s, a in seen.moves],
        "known": [_cards(k) for k in seen.known],
        "voids": [[SUIT_NAMES[s] for s in range(4) if v >> s & 1] for v in seen.voids],
        "out": list(seen.out),
        "tricks": list(seen.tricks),
        "drawn": list(seen.drawn),
        "taken": _cards(seen.taken),
        "losses": list(seen.losses),
        "firsts": list(seen.firsts),
        "deals": [_deal_json(d) for d in seen.deals],
        "legal": [ACTION_TEXT[a] for a in seen.legal],
        "why_not": _why_not(seen),
        "outcome": seen.outcome.to_json() if seen.outcome else None,
        "stopped": None if stopped is None else message_to_json(stopped),
    }


def _deal_json(entry: JsonDict) -> JsonDict:
    """A fresh copy of a finished deal's summary (views must not share mutable parts)."""
    return {key: list(value) if isinstance(value, list) else value
            for key, value in entry.items()}


def _why_not(seen: CangkulSeen) -> dict[str, JsonDict]:
    """For the seat to play: each card in hand it may not play, with the reason (a message
    as JSON, rendered in the reader's language)."""
    if seen.seat is None or seen.seat not in seen.to_act or not seen.trick:
        return {}
    lead_suit = seen.trick[0][1] // 13
    barred = [c for c in cards_of(seen.hand) if c not in seen.legal]
    if not barred:
        return {}
    if seen.hand & SUIT_MASKS[lead_suit]:
        reason = message_to_json(Message("must follow {suit}",
                                         suit=Term("suit", SUIT_NAMES[lead_suit])))
    else:
        reason = message_to_json(cannot_follow_reason(
            lead_suit, seen.stock_size > 0, seen.options["empty_stock"],
            trick_may_be_taken(seen.options["empty_stock"], seen.taken, seen.trick)))
    return {card_text(c): reason for c in barred}


def say_action(view: JsonDict, action: str) -> Message:
    """A move in words, as a hint or a replay names it ("playing 9H", "drawing from the
    stock"): the seat's ``view`` before it, and the move's notation."""
    act = GAME.parse_action(action)
    if act < 52:
        return Message("playing {card}", card=PlayingCard(act))
    if act == DRAW:
        return Message("drawing from the stock")
    if act == PASS:
        return Message("passing")
    return Message("taking the trick's cards")
