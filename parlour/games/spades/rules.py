"""Spades: four players in two partnerships, bidding then thirteen tricks, match to 500.

The rules follow ``shared/seeds/spades.en.md`` (cardgames.io's Spades); where the text is
silent the decisions are written in ``full-rules/en.md``.

Seats sit clockwise South (0), West (1), North (2), East (3); partners face each other, so
team 0 is seats 0 and 2 (North-South) and team 1 is seats 1 and 3 (East-West). Play moves
to the next seat number ("to the left").

Actions (68): ``0..51`` play that card (see :mod:`parlour.cards`); ``52`` bid nil;
``53..65`` bid 1..13; ``66`` bid blind nil; ``67`` look at one's cards (only offered to a
player who may still bid blind nil).

The hot path (``legal_actions`` then ``apply``, inside bot search loops) works on bit
masks: each hand is an int with bit ``card`` set, legal actions are computed once per turn
as a mask plus a cached tuple, and ``apply`` checks legality against that mask.
"""

from __future__ import annotations

import copyreg
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from mypy_extensions import mypyc_attr

from parlour.cards import (
    FULL_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    card_text,
    cards_in,
    cards_of,
    hand_of,
    is_spade,
    keyed_packed,
    mask_of,
    parse_card,
    same_suit,
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
    ascii_int,
    check_action_range,
    plural_message,
    position_fields,
    quoted,
    reduce_state,
)
from parlour.message import N_, message_to_json
from parlour.sampling import deal_by_kind

NIL: Final = 52
BID_BASE: Final = 52  # bid n (1..13) is BID_BASE + n
BLIND_NIL: Final = 66
LOOK: Final = 67
NUM_ACTIONS: Final = 68

BIDDING: Final = 0
PLAYING: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("bid", "play", "over")
SEAT_NAMES: Final = ("South", "West", "North", "East")
TEAM_NAMES: Final = ("North-South", "East-West")
FIRST_DEALER: Final = 3  # so that South (seat 0) bids and leads first in the first deal

_SPADE_MASK: Final = SUIT_MASKS[SPADES]
_NON_SPADES: Final = FULL_MASK ^ _SPADE_MASK
_BID_MASK: Final = sum(1 << (BID_BASE + n) for n in range(0, 14))  # nil and 1..13
_BLIND_CHOICE_MASK: Final = (1 << BLIND_NIL) | (1 << LOOK)
# Typed as tuples of any length, so that compiled code hands out these very tuples (a
# ``tuple[int]`` item would be unboxed and boxed again on every read).
_TO_ACT: Final[tuple[tuple[Seat, ...], ...]] = tuple((s,) for s in range(4))
_NO_BLIND: Final = (False, False)


_BIDS: Final = tuple(range(NIL, BID_BASE + 14))
_BLIND_CHOICE: Final = (BLIND_NIL, LOOK)


def deal_hands(seed: int, deal: int) -> list[int]:
    """The four hands (bit masks) of a deal: a uniform shuffle keyed by seed and deal.

    The 52 cards in the order :func:`parlour.cards.keyed_order` gives them (32-bit keys
    drawn from SHAKE-128), which is several times cheaper than seeding a Mersenne Twister
    for every deal; taken from its sort (:func:`parlour.cards.keyed_packed`) straight into
    the hands.
    """
    order = keyed_packed(b"spades:%d:%d" % (seed, deal))
    hands = []
    for start in (0, 13, 26, 39):
        hand = 0
        for i in range(start, start + 13):  # (an index loop: a slice would copy)
            hand |= 1 << (int(order[i]) & 63)
        hands.append(hand)
    return hands


# --------------------------------------------------------------------------- the play rules
def beats(card: int, best: int) -> bool:
    """Whether ``card`` takes a trick that ``best`` is winning: a higher card of its suit, or
    a spade (the trumps) on a card of another suit; a card of any other suit never does."""
    return card > best and (is_spade(card) or same_suit(card, best))


def trick_winner(trick: list[tuple[Seat, int]]) -> Seat:
    """The seat whose card wins a trick (``(seat, card)`` pairs in the order played)."""
    win_seat, win = trick[0]
    for seat, card in trick[1:]:
        if beats(card, win):
            win_seat, win = seat, card
    return win_seat


def playable(hand: int, lead_suit: int | None, broken: bool) -> int:
    """The cards of ``hand`` (a mask) that may be played: to a trick led in ``lead_suit``,
    one of that suit if the hand holds any, else any card; to lead (``lead_suit`` None), any
    card but a spade until spades are ``broken``, unless the hand holds only spades."""
    if lead_suit is not None:
        return hand & SUIT_MASKS[lead_suit] or hand
    if broken or hand & _SPADE_MASK == hand:
        return hand
    return hand & _NON_SPADES


def unplayable_reason(lead_suit: int) -> Message:
    """Why a held card may not be played (see :func:`playable`): to a trick led in
    ``lead_suit``, the hand holds that suit; to lead (``lead_suit`` -1), spades are not
    broken. (The five messages are made once: a message is never changed, and the seat to
    play is told one in every view.)"""
    return _UNPLAYABLE[lead_suit]


#: unplayable_reason's messages by the lead's suit, the last (index -1) to lead.
_UNPLAYABLE: Final = (*(Message("must follow {suit}", suit=Term("suit", SUIT_NAMES[suit]))
                        for suit in range(4)),
                      Message("spades not broken: lead another suit"))


def score_team(bids: tuple[int, int], blind: tuple[bool, bool], tricks: tuple[int, int],
               score: int, bags: int, options: dict[str, Any]) -> JsonDict:
    """One team's result for one deal.

    ``bids``, ``blind`` and ``tricks`` are the two partners' (a nil bid is 0). Returns the
    points won (``points``), the new ``score`` and ``bags``, and the parts: ``contract``
    (the points from the partners' bid), ``nil`` (nil bonuses and penalties), ``bag_points``
    and ``penalty`` (bag penalties).
    """
    contract, nil, bag_points, penalty, new_bags = team_deal(bids, blind, tricks, bags, options)
    points = contract + nil + bag_points - penalty
    return {"points": points, "score": score + points, "bags": new_bags,
            "contract": contract, "nil": nil, "bag_points": bag_points, "penalty": penalty}


def team_deal(bids: tuple[int, int], blind: tuple[bool, bool], tricks: tuple[int, int],
              bags: int, options: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """The arithmetic of :func:`score_team`, as plain numbers (a match's scoring needs no
    dict): the contract's points, the nil points, the bag points, the bag penalty and the
    team's bags after the deal. The points won are ``contract + nil + bag points - penalty``."""
    nil_value: int = options["nil_value"]
    blind_nil_value: int = options["blind_nil_value"]
    counts_for_partner = options["nil_tricks_count"]
    contract = bids[0] + bids[1]
    nil_points = 0
    made_tricks = 0
    nil_bags = 0
    for partner in range(2):
        # (each pair read at a constant index: compiled, a pair is two machine words, which
        # an index only known at run time would first make into a tuple object)
        bid = bids[1] if partner else bids[0]
        took = tricks[1] if partner else tricks[0]
        if bid == 0:
            value = blind_nil_value if (blind[1] if partner else blind[0]) else nil_value
            nil_points += value if took == 0 else -value
            if counts_for_partner:
                made_tricks += took
            else:
                nil_bags += took
        else:
            made_tricks += took
    contract_points = 0
    overtricks = 0
    if contract > 0:
        if made_tricks >= contract:
            won = 200 if options["ten_for_two_hundred"] and contract >= 10 else 10 * contract
            contract_points = won
            overtricks = made_tricks - contract
        else:
            contract_points = -10 * contract
    else:
        overtricks = made_tricks  # both partners bid nil: every trick is a bag
    new_bags = bags + overtricks + nil_bags
    bag_limit: int = options["bag_limit"]
    bag_penalty: int = options["bag_penalty"]
    penalty = 0
    while new_bags >= bag_limit:
        penalty += bag_penalty
        new_bags -= bag_limit
    return contract_points, nil_points, overtricks + nil_bags, penalty, new_bags


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass it
class SpadesGame(Game):
    id = "spades"
    name = "Spades"
    min_seats = 4
    max_seats = 4
    default_seats = 4
    num_actions = NUM_ACTIONS
    options = (
        Option("target", int, 500, "points that win the match", minimum=10, maximum=5000,
               label=N_("Points to win")),
        Option("nil_value", int, 100, "won for a made nil, lost for a failed one", minimum=0,
               maximum=1000, label=N_("Points for nil")),
        Option("bag_limit", int, 10, "overtricks (bags) that cost a penalty", minimum=1,
               maximum=100, label=N_("Bags before a penalty")),
        Option("bag_penalty", int, 100, "points lost each time the bags reach the limit",
               minimum=0, maximum=1000, label=N_("Bag penalty")),
        Option("blind_nil", bool, False,
               "allow blind nil (bid before looking) to a team far enough behind",
               label=N_("Blind nil")),
        Option("blind_nil_value", int, 200, "won or lost for a blind nil", minimum=0,
               maximum=1000, label=N_("Points for blind nil")),
        Option("blind_nil_deficit", int, 100,
               "how far behind a team must be to bid blind nil", minimum=0, maximum=5000,
               label=N_("Behind by, for blind nil")),
        Option("mercy", int, None, "a team at or below this score loses (off by default; "
               "e.g. -200)", nullable=True, minimum=-5000, maximum=5000,
               label=N_("Mercy score")),
        Option("ten_for_two_hundred", bool, False,
               "a made team bid of 10 or more scores 200 instead of 10 per trick",
               label=N_("Ten tricks for 200")),
        Option("nil_tricks_count", bool, False,
               "tricks won by a player who bid nil count toward the partner's bid, instead "
               "of only as bags", label=N_("Nil tricks help the partner")),
        Option("max_deals", int, 100,
               "the game stops after this many deals, and the higher score wins (equal: draw)",
               minimum=1, maximum=200, label=N_("Most deals")),
    )

    def _new(self, seed: int, seats: int, options: dict[str, Any]) -> SpadesState:
        return SpadesState(self, seed, options)

    def seat_name(self, seat: Seat, seats: int = 4) -> str:
        return SEAT_NAMES[seat] if 0 <= seat < 4 else f"seat {seat}"

    def action_text(self, action: object) -> str:
        if type(action) is not int:
            raise NotationError("unknown {game} action {action}", game=Term("game", self.name),
                                action=Code(quoted(action)))
        if 0 <= action < 52:
            return card_text(action)
        if action == NIL:
            return "nil"
        if BID_BASE < action <= BID_BASE + 13:
            return f"bid {action - BID_BASE}"
        if action == BLIND_NIL:
            return "blind nil"
        if action == LOOK:
            return "look"
        raise NotationError("unknown {game} action {action}", game=Term("game", self.name),
                                action=Code(quoted(action)))

    def parse_action(self, text: str) -> Action:
        t = " ".join(text.strip().lower().split())
        if t in ("nil", "bid nil", "0", "bid 0"):
            return NIL
        if t in ("blind nil", "bid blind nil", "blind"):
            return BLIND_NIL
        if t == "look":
            return LOOK
        number = t.removeprefix("bid").strip()
        n = ascii_int(number)
        if n is not None:
            if 1 <= n <= 13:
                return BID_BASE + n
            raise NotationError("a bid is nil or 1 to 13, not {bid}", bid=Code(str(n)))
        try:
            return parse_card(t)
        except ValueError:
            raise NotationError(
                "not a Spades action: {text} (expected a card like QS or 10H, a bid like "
                "'bid 4' or 'nil', 'blind nil' or 'look')", text=Code(quoted(text))) from None


    def from_position(self, text: str, seed: int = 0, **options: Any) -> SpadesState:
        """A match standing at the start of a deal, before any bid: the position ``text``
        (see :func:`parse_position`). For tests, puzzles and analysis: ``seed`` keys the
        later deals; the match has no record of its own."""
        position = parse_position(text)
        state = self.new(seed, **options)
        assert isinstance(state, SpadesState)
        state._set_position(position)
        return state


GAME = SpadesGame()

#: The fields of a position's text, in the order it is written.
POSITION_FIELDS: Final = ("hands", "deal", "scores", "bags")


def parse_position(text: str) -> JsonDict:
    """Read a position: the start of a deal, written (FEN-like) as ``name: value`` fields
    separated by ``;`` or new lines, in any order::

        hands: AS KS ... | AH KH ... | AD KD ... | AC KC ...; deal: 3; scores: 120, -40;
        bags: 2, 0

    ``hands`` (required): South's, West's, North's and East's thirteen cards, ``|`` between
    seats, every card of the deck once; ``deal``: its number in the match (1 by default; the
    dealer follows from it); ``scores`` and ``bags``: each team's (North-South first) before
    the deal (0 by default). A clear ``ValueError`` for anything else."""
    fields = position_fields(text, POSITION_FIELDS)
    if "hands" not in fields:
        raise ValueError("a position needs its hands ('hands: AS KS ... | ... | ... | ...')")
    try:
        hands = [[parse_card(c) for c in h.split()] for h in fields["hands"].split("|")]
    except ValueError as err:
        raise ValueError(f"hands: {err}") from None
    if len(hands) != 4 or any(len(h) != 13 for h in hands):
        raise ValueError("hands: four hands of 13 cards each, '|' between them")
    if len({c for h in hands for c in h}) != 52:
        raise ValueError("hands: every card of the deck exactly once")
    deal = fields.get("deal", "1")
    if not deal.isdigit() or int(deal) < 1:
        raise ValueError(f"deal is a number from 1, not {deal!r}")
    out: JsonDict = {"hands": [mask_of(h) for h in hands], "deal": int(deal)}
    for name in ("scores", "bags"):
        words = [w.strip() for w in fields.get(name, "0, 0").split(",")]
        try:
            pair = [int(w) for w in words]
        except ValueError:
            pair = []
        if len(pair) != 2 or (name == "bags" and min(pair) < 0):
            raise ValueError(f"{name} are two whole numbers (North-South, East-West), not "
                             f"{fields[name]!r}")
        out[name] = pair
    return out


class SpadesState(State):
    """A Spades match. Public attributes are for reading; change the state with ``apply``."""

    __slots__ = (
        "_blind_ok",
        "_deal_records",
        "_deals",
        "_hands",
        "_lead_suit",
        "_legal",
        "_legal_mask",
        "_moves",
        "_outcome",
        "_past",
        "bags",
        "bids",
        "blind",
        "broken",
        "deal",
        "dealer",
        "game",
        "leader",
        "looked",
        "num_seats",
        "options",
        "phase",
        "scores",
        "seed",
        "trick_len",
        "tricks",
        "turn",
        "win_card",
        "win_seat",
    )
    # Fields set outside ``__init__`` whose type mypy cannot take from their first assignment.
    _hands: list[int] | None  # the four hands as bit masks; None until first needed
    _blind_ok: Sequence[bool]  # per team: may bid blind nil this deal

    def __init__(self, game: Game, seed: int, options: dict[str, Any], *,
                 blank: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.num_seats = 4
        self.options = options
        if blank:  # a clone fills in the rest (a compiled class cannot skip __init__)
            return
        self._past: tuple[tuple[tuple[Seat, Action], ...], ...] = ()  # one tuple per deal
        self.scores = [0, 0]
        self.bags = [0, 0]
        # What each finished deal was (see :meth:`deals`), and its summaries made so far.
        self._deal_records: tuple[DealRecord, ...] = ()
        self._deals: list[JsonDict] = []
        self._outcome: Outcome | None = None
        self.deal = 0
        self._start_deal()

    # ------------------------------------------------------------------ positions
    def position_text(self) -> str:
        """The deal being played as a position (see :func:`parse_position`): the hands as
        they were dealt, the deal number and the scores and bags before it. The whole
        truth: not for bots."""
        if self.phase == OVER:
            raise ValueError("the match is over: there is no deal to write")
        dealt = list(self.hands)
        for seat, card in self.plays():
            dealt[seat] |= 1 << card
        hands = " | ".join(" ".join(card_text(c) for c in hand_of(h))
                           for h in dealt)
        return (f"hands: {hands}; deal: {self.deal}; "
                f"scores: {self.scores[0]}, {self.scores[1]}; "
                f"bags: {self.bags[0]}, {self.bags[1]}")

    def _set_position(self, position: JsonDict) -> None:
        """Stand the match at the start of the deal ``position`` describes."""
        if position["deal"] > self.options["max_deals"]:
            raise ValueError(f"deal {position['deal']} is past this match's max_deals "
                             f"({self.options['max_deals']})")
        self.scores = list(position["scores"])
        self.bags = list(position["bags"])
        self.deal = position["deal"] - 1
        self._start_deal()
        self._hands = list(position["hands"])

    # ------------------------------------------------------------------ dealing
    def _start_deal(self) -> None:
        self.deal += 1
        self.dealer = dealer = (FIRST_DEALER + self.deal - 1) & 3
        self._hands = None  # dealt when first needed
        self._moves: list[tuple[Seat, Action]] = []
        self.phase = BIDDING
        self.turn = self.leader = (dealer + 1) & 3
        self.bids: list[int | None] = [None, None, None, None]
        self.blind = [False, False, False, False]
        self.tricks = [0, 0, 0, 0]
        self.trick_len = 0
        self._lead_suit = -1
        self.win_card = -1
        self.win_seat = -1
        self.broken = False
        if self.options["blind_nil"]:
            gap = self.options["blind_nil_deficit"]
            behind = [self.scores[t] <= self.scores[1 - t] - gap for t in (0, 1)]
            self._blind_ok = behind
            self.looked = [not behind[s & 1] for s in range(4)]
        else:
            self._blind_ok = _NO_BLIND
            self.looked = [True, True, True, True]
        self._set_bid_legal()

    @property
    def hands(self) -> list[int]:
        """The four hands as bit masks of cards (the whole truth: not for bots)."""
        hands = self._hands
        if hands is None:
            hands = self._hands = deal_hands(self.seed, self.deal)
        return hands

    def hand(self, seat: Seat) -> list[int]:
        return cards_of(self.hands[seat])

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[Seat, ...]:
        return () if self.phase == OVER else _TO_ACT[self.turn]

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def history(self) -> list[tuple[Seat, Action]]:
        return [m for deal in self._past for m in deal] + self._moves

    @property
    def round(self) -> int:
        return self.deal

    def legal_actions(self, seat: Seat | None = None) -> tuple[int, ...]:
        if seat is None or seat == self.turn:
            return self._legal
        return ()

    def _set_bid_legal(self) -> None:
        if self.looked[self.turn]:
            self._legal_mask, self._legal = _BID_MASK, _BIDS
        else:
            self._legal_mask, self._legal = _BLIND_CHOICE_MASK, _BLIND_CHOICE

    def apply(self, action: object, seat: object = None) -> None:
        turn = self.turn
        if seat is not None and (type(seat) is not int or seat != turn):
            self.acting_seat(seat)  # raises with the reason (or returns, for a seat == turn)
        if type(action) is not int or action < 0 or not self._legal_mask >> action & 1:
            raise IllegalAction(self._why_illegal(action, turn))
        card: int = action  # checked: from here on a plain int (native in the compiled build)
        self._moves.append((turn, card))
        if card >= 52:
            self._bid(turn, card)
            return
        hands = self._hands
        assert hands is not None  # dealt when the bidding ended
        # (``x[i] = x[i] ^ y``, not ``x[i] ^= y``: mypyc compiles the latter as generic code)
        hands[turn] = hands[turn] ^ (1 << card)
        n = self.trick_len
        if n:
            if beats(card, self.win_card):
                self.win_card = card
                self.win_seat = turn
            if n == 3:
                self.trick_len = 0
                self.turn = nxt = self.win_seat
                tricks = self.tricks
                tricks[nxt] = tricks[nxt] + 1
                if is_spade(self.win_card):  # a spade played to a trick always takes it
                    self.broken = True
                hand = hands[nxt]
                if not hand:
                    self._end_deal()
                    return
                self._set_play_legal(hand, None)
                return
            self.trick_len = n + 1
        else:
            self.win_seat = self.leader = turn
            self.win_card = card
            self._lead_suit = suit_of(card)
            self.trick_len = 1
        self.turn = nxt = (turn + 1) & 3
        self._set_play_legal(hands[nxt], self._lead_suit)

    def _set_play_legal(self, hand: int, lead_suit: int | None) -> None:
        mask = self._legal_mask = playable(hand, lead_suit, self.broken)
        if lead_suit is not None and mask & SUIT_MASKS[lead_suit] == mask:  # following suit
            self._legal = suit_cards_in(mask, lead_suit)
            return
        self._legal = cards_in(mask)

    def _bid(self, turn: Seat, action: Action) -> None:
        if action == LOOK:
            self.looked[turn] = True
        else:
            if action == BLIND_NIL:
                self.bids[turn] = 0
                self.blind[turn] = True
                self.looked[turn] = True
            else:
                self.bids[turn] = action - BID_BASE
            bids = self.bids
            # (four tests, not ``None in bids``: compiled, these are four pointer compares)
            if bids[0] is None or bids[1] is None or bids[2] is None or bids[3] is None:
                self.turn = (turn + 1) & 3
            else:
                self.phase = PLAYING
                self.turn = leader = self.leader
                self._set_play_legal(self.hands[leader], None)
                return
        self._set_bid_legal()

    def _why_illegal(self, action: object, turn: Seat) -> Message:
        try:
            action = check_action_range(self.game, action)
        except IllegalAction as err:
            return err.message
        if self.phase == OVER:
            return GAME_OVER
        if self.phase == BIDDING:
            if action < 52:
                return Message("bidding is not over: bid before playing a card")
            if not self.looked[turn]:
                return Message("look at your cards first, or bid blind nil without looking")
            if action == BLIND_NIL:
                if not self.options["blind_nil"]:
                    return Message("blind nil is not played at this table")
                if not self._blind_ok[turn & 1]:
                    return Message("blind nil is only allowed to a team behind by {points} or "
                                   "more", points=self.options["blind_nil_deficit"])
                return Message("blind nil must be bid before looking at your cards")
            if action == LOOK:
                return Message("you have already seen your cards")
            return Message("that is not a bid")
        if action >= 52:
            return Message("bidding is over: play a card")
        if not self.hands[turn] >> action & 1:
            return Message("you do not hold {card}", card=PlayingCard(action))
        return unplayable_reason(self.lead_suit())

    def lead_suit(self) -> int:
        """The suit led to the trick on the table; -1 when none is (the next card leads)."""
        return self._lead_suit if self.trick_len else -1

    # ------------------------------------------------------------------ scoring
    @property
    def deals(self) -> list[JsonDict]:
        """One summary per finished deal: its number and dealer, the bids (as words for
        nil), the tricks taken, each team's :func:`score_team` and the scores and bags
        after it. Made when first read: a match scores its deals as numbers, and a search
        that plays deals out and throws them away never builds a summary."""
        made, records = self._deals, self._deal_records
        while len(made) < len(records):
            made.append(_deal_summary(records[len(made)], self.options))
        return made

    def _end_deal(self) -> None:
        opts = self.options
        bids, blind, tricks = self.bids, self.blind, self.tricks
        scores, bags = self.scores, self.bags
        self._deal_records += ((self.deal, self.dealer, tuple(bids), tuple(blind), tricks,
                                scores[0], scores[1], bags[0], bags[1]),)
        for team in (0, 1):
            a, b = team, team + 2
            contract, nil, bag_points, penalty, new_bags = team_deal(
                (bids[a] or 0, bids[b] or 0), (blind[a], blind[b]), (tricks[a], tricks[b]),
                bags[team], opts)
            scores[team] = scores[team] + contract + nil + bag_points - penalty
            bags[team] = new_bags
        self._past += (tuple(self._moves),)
        winner = self._match_winner()
        if winner is None:
            self._start_deal()
            return
        self.phase = OVER
        self._moves = []
        self._legal = ()
        self._legal_mask = 0
        self.turn = -1
        pts = tuple(float(self.scores[s & 1]) for s in range(4))
        if winner == -1:
            self._outcome = Outcome(pts, (1, 1, 1, 1))
        else:
            self._outcome = Outcome(pts, tuple(1 if s & 1 == winner else 2 for s in range(4)))

    def _match_winner(self) -> int | None:
        """0 or 1 for the winning team, -1 for a drawn match, None to play on."""
        winner = rules_winner(self.scores, self.options)
        if winner is not None:
            return winner
        if self.deal >= self.options["max_deals"]:  # the safety stop
            a, b = self.scores
            return 0 if a > b else 1 if b > a else -1
        return None

    @property
    def safety_stops(self) -> tuple[SafetyStop, ...]:
        """The match, if the ``max_deals`` safety stop ended it."""
        stop = match_stop(self.options, self.scores, self.deal, self._outcome)
        return () if stop is None else (SafetyStop("max_deals", self.deal, True, stop),)

    # ------------------------------------------------------------------ views
    def seen(self, seat: Seat | None) -> SpadesSeen:
        """Everything ``seat`` may see (None: a spectator), as compact facts: the one
        place that decides what a seat sees. :meth:`view` is built from them alone
        (:func:`view_of`), and the learning environments encode them directly."""
        phase = self.phase
        hands = self.hands
        moves = self._moves
        plays: tuple[tuple[Seat, int], ...] = ()
        trick: tuple[tuple[Seat, int], ...] = ()
        if phase == PLAYING:
            # every card played this deal left a hand, and all bids come before the first
            played = 52 - (hands[0].bit_count() + hands[1].bit_count() + hands[2].bit_count()
                           + hands[3].bit_count())
            if played:
                plays = tuple(moves[len(moves) - played:])
                if played & 3:
                    trick = plays[len(plays) - (played & 3):]
        last: tuple[tuple[Seat, int], ...] = ()
        last_deal = self.deal
        done = len(plays) >> 2
        if done:
            last = plays[4 * done - 4: 4 * done]
        elif self._past:
            last = self._past[-1][-4:]  # a deal's last four actions are its last trick
            if phase != OVER:  # a new deal has begun: the trick was the previous deal's
                last_deal -= 1
        hand, hidden, legal = self.own(seat)
        return SpadesSeen(
            seat=seat, options=self.options, phase=phase, deal=self.deal, dealer=self.dealer,
            to_act=self.to_act, hand=hand, hand_hidden=hidden,
            hand_sizes=(hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(),
                        hands[3].bit_count()),
            bids=tuple(self.bids), blind=tuple(self.blind),
            leader=self.leader if phase == PLAYING else -1, plays=plays, trick=trick,
            tricks=tuple(self.tricks),
            spades_broken=self.broken or any(is_spade(c) for _, c in trick), last_trick=last,
            last_trick_deal=last_deal, scores=(self.scores[0], self.scores[1]),
            bags=(self.bags[0], self.bags[1]), deals=tuple(self.deals),
            legal=legal, outcome=self._outcome)

    def own(self, seat: Seat | None) -> tuple[int, bool, tuple[int, ...]]:
        """What ``seat`` alone sees (a spectator: nothing): its hand as a bit mask (-1
        before it looked at it), whether it has not looked yet (blind nil offered), and its
        legal actions. :meth:`seen` takes them from here, and so does the server's part of
        a seat's view (:func:`seat_view`)."""
        if seat is None:
            return -1, False, ()
        looked = self.looked[seat]
        return (self.hands[seat] if looked else -1), not looked, self.legal_actions(seat)

    def plays(self) -> list[tuple[Seat, int]]:
        """The cards played so far in this deal, in order, with who played them."""
        return [(s, a) for s, a in self._moves if a < 52]

    def voids(self) -> list[int]:
        """Per seat, a mask of suits (bit per suit) that seat has shown it lacks this deal."""
        out = [0, 0, 0, 0]
        plays = self.plays()
        for i in range(0, len(plays), 4):
            trick = plays[i:i + 4]
            lead = trick[0][1]
            for seat, card in trick[1:]:
                if not same_suit(card, lead):
                    out[seat] = out[seat] | 1 << suit_of(lead)
        return out

    def view(self, seat: object) -> JsonDict:
        if seat is not None and not (type(seat) is int and 0 <= seat < 4):
            raise ValueError(f"there is no seat {seat!r} in Spades")
        return view_of(self.seen(seat))

    # ------------------------------------------------------------------ search support
    def clone(self) -> SpadesState:
        new = SpadesState(self.game, self.seed, self.options, blank=True)
        new._past = self._past
        new._moves = self._moves.copy()
        new._hands = None if self._hands is None else self._hands.copy()
        new.phase = self.phase
        new.deal = self.deal
        new.dealer = self.dealer
        new.turn = self.turn
        new.bids = self.bids.copy()
        new.blind = self.blind.copy()
        new.looked = self.looked.copy()
        new._blind_ok = self._blind_ok
        new.tricks = self.tricks.copy()
        new.trick_len = self.trick_len
        new.win_card = self.win_card
        new.win_seat = self.win_seat
        new.leader = self.leader
        new.broken = self.broken
        new.scores = self.scores.copy()
        new.bags = self.bags.copy()
        new._deal_records = self._deal_records
        new._deals = self._deals.copy()  # entries are never mutated once appended
        new._outcome = self._outcome
        new._legal = self._legal
        new._legal_mask = self._legal_mask
        new._lead_suit = self._lead_suit
        return new

    def determinize(self, seat: Seat | None, rng: random.Random) -> SpadesState:
        new = self.clone()
        new.seed = rng.getrandbits(63)
        if self.phase == OVER:
            return new
        hands = self.hands
        known = seat is not None and self.looked[seat]
        hidden = [s for s in range(4) if not (known and s == seat)]
        unseen = 0
        for s in hidden:
            unseen |= hands[s]
        pool = cards_of(unseen)  # the hidden hands' cards, lowest first (hands are disjoint)
        sizes = [hands[s].bit_count() if s in hidden else 0 for s in range(4)]
        allowed = [~v & 0xF for v in self.voids()]
        dealt = deal_by_kind(pool, sizes, rng, suit_of, allowed)
        new_hands = list(hands)
        for s in hidden:
            new_hands[s] = mask_of(dealt[s])
        new._hands = new_hands
        if self.phase == PLAYING and self.turn in hidden:  # its legal cards come from the new hand
            new._set_play_legal(new_hands[self.turn], self._lead_suit if self.trick_len else None)
        return new

    def __repr__(self) -> str:
        return (f"<SpadesState seed={self.seed} deal={self.deal} "
                f"phase={PHASE_NAMES[self.phase]} scores={self.scores}>")


copyreg.pickle(SpadesState, reduce_state)  # how a state is pickled (see the engine)


@dataclass(init=False)
class SpadesSeen:
    """What one seat may see of a Spades match (``seat`` None: a spectator), as compact
    facts: cards as ints (see :mod:`parlour.cards`), seats as ints, no text. Built by
    :meth:`SpadesState.seen`; :func:`view_of` turns it into the view. Read, never changed.

    Built at every view and every learning-environment step, so its ``__init__`` is
    written out: mypyc compiles it, and a call names its arguments at no cost. The one
    ``dataclass`` makes (``init=True``) reached the compiled class through a dictionary
    of the arguments and the interpreter (frozen, an ``object.__setattr__`` a field as
    well): some twenty times the cost of this one (a sixth of a seat's whole view). The
    dataclass still gives ``==`` and ``repr``."""

    seat: Seat | None
    options: dict[str, Any]  # the match's options (never changed)
    phase: int  # BIDDING, PLAYING or OVER
    deal: int
    dealer: Seat
    to_act: tuple[Seat, ...]
    hand: int  # the seat's cards as a bit mask; -1 for a spectator or before looking
    hand_hidden: bool  # the seat has not looked at its cards (blind nil offered)
    hand_sizes: tuple[int, ...]
    bids: tuple[int | None, ...]  # per seat: None not yet, 0 nil, 1..13
    blind: tuple[bool, ...]  # per seat: its nil was blind
    leader: Seat  # who led the trick on the table; -1 outside the play
    plays: tuple[tuple[Seat, int], ...]  # this deal's cards in the order played
    trick: tuple[tuple[Seat, int], ...]  # the cards on the table (the last plays)
    tricks: tuple[int, ...]  # tricks taken this deal, per seat
    spades_broken: bool  # a spade has been played this deal
    last_trick: tuple[tuple[Seat, int], ...]  # the last complete trick; () before any
    last_trick_deal: int  # the deal it belongs to
    scores: tuple[int, ...]  # per team
    bags: tuple[int, ...]  # per team
    deals: tuple[JsonDict, ...]  # the finished deals' summaries
    legal: tuple[int, ...]  # the seat's legal actions now
    outcome: Outcome | None

    def __init__(self,
                 seat: Seat | None,
                 options: dict[str, Any],
                 phase: int,
                 deal: int,
                 dealer: Seat,
                 to_act: tuple[Seat, ...],
                 hand: int,
                 hand_hidden: bool,
                 hand_sizes: tuple[int, ...],
                 bids: tuple[int | None, ...],
                 blind: tuple[bool, ...],
                 leader: Seat,
                 plays: tuple[tuple[Seat, int], ...],
                 trick: tuple[tuple[Seat, int], ...],
                 tricks: tuple[int, ...],
                 spades_broken: bool,
                 last_trick: tuple[tuple[Seat, int], ...],
                 last_trick_deal: int,
                 scores: tuple[int, ...],
                 bags: tuple[int, ...],
                 deals: tuple[JsonDict, ...],
                 legal: tuple[int, ...],
                 outcome: Outcome | None) -> None:
        self.seat = seat
        self.options = options
        self.phase = phase
        self.deal = deal
        self.dealer = dealer
        self.to_act = to_act
        self.hand = hand
        self.hand_hidden = hand_hidden
        self.hand_sizes = hand_sizes
        self.bids = bids
        self.blind = blind
        self.leader = leader
        self.plays = plays
        self.trick = trick
        self.tricks = tricks
        self.spades_broken = spades_broken
        self.last_trick = last_trick
        self.last_trick_deal = last_trick_deal
        self.scores = scores
        self.bags = bags
        self.deals = deals
        self.legal = legal
        self.outcome = outcome


ACTION_TEXT: Final = tuple(GAME.action_text(a) for a in range(NUM_ACTIONS))


def rules_winner(scores: Sequence[int], options: dict[str, Any]) -> int | None:
    """The team (0 or 1) the rules make the winner after a deal: ahead, and at the target
    or over, or the other team at the mercy score or under; None: nobody yet."""
    a, b = scores
    leader = 0 if a > b else 1 if b > a else None
    mercy = options["mercy"]
    if leader is not None and (max(a, b) >= options["target"]
                               or (mercy is not None and min(a, b) <= mercy)):
        return leader
    return None


def match_stop(options: dict[str, Any], scores: Sequence[int], deal: int,
               outcome: Outcome | None) -> Message | None:
    """What the players are told when the ``max_deals`` safety stop ended the match (the
    rules gave no winner): None while it goes on, or when the rules ended it."""
    if outcome is None or rules_winner(scores, options) is not None:
        return None
    return plural_message("The match stops after {deals} deal, the most it may last, without "
                          "a winner by the rules: the higher score wins, and equal scores "
                          "draw.", "The match stops after {deals} deals, the most it may "
                          "last, without a winner by the rules: the higher score wins, and "
                          "equal scores draw.", "deals", deals=deal)


def view_of(seen: SpadesSeen) -> JsonDict:
    """The JSON-ready view of what a seat sees, from its facts alone."""
    seat = seen.seat
    trick = seen.trick
    hand = _hand_json(seen.hand)
    last = seen.last_trick
    stopped = match_stop(seen.options, seen.scores, seen.deal, seen.outcome)
    return {
        "game": "spades",
        "seat": seat,
        "seats": 4,
        "seat_names": list(SEAT_NAMES),
        "teams": [[0, 2], [1, 3]],
        "team_names": list(TEAM_NAMES),
        "options": dict(seen.options),
        "phase": PHASE_NAMES[seen.phase],
        "deal": seen.deal,
        "dealer": seen.dealer,
        "to_act": list(seen.to_act),
        "hand": hand,
        "hand_hidden": seen.hand_hidden,
        "hand_sizes": list(seen.hand_sizes),
        "bids": [_bid_text(b, bl) for b, bl in zip(seen.bids, seen.blind, strict=True)],
        "leader": seen.leader if seen.leader >= 0 else None,
        "trick": [{"seat": s, "card": card_text(c)} for s, c in trick],
        "tricks": list(seen.tricks),
        "last_trick": {"cards": [{"seat": s, "card": card_text(c)} for s, c in last],
                       "winner": trick_winner(list(last)), "deal": seen.last_trick_deal}
        if last else None,
        "played": [[s, card_text(c)] for s, c in seen.plays],
        "spades_broken": seen.spades_broken,
        "scores": list(seen.scores),
        "bags": list(seen.bags),
        "deals": [_deal_json(d) for d in seen.deals],  # finished deals are public
        "legal": _legal_json(seen.legal),
        "why_not": _why_not(seat, seen.phase, seen.to_act, seen.legal, seen.hand,
                            suit_of(trick[0][1]) if trick else -1),
        "outcome": seen.outcome.to_json() if seen.outcome else None,
        "stopped": None if stopped is None else message_to_json(stopped),
    }


def seat_view(state: State, seat: Seat | None) -> JsonDict:
    """The part of ``state.view(seat)`` that depends on the seat, alone: the view is the
    spectator's with these entries set (the spec's ``seat_view``, see the registry). From
    the seat's own facts (:meth:`SpadesState.own`, which :meth:`~SpadesState.seen` takes
    them from too) and the trick's lead: the rest of the facts are the spectator's."""
    assert isinstance(state, SpadesState)
    hand, hidden, legal = state.own(seat)
    return {"seat": seat, "hand": _hand_json(hand), "hand_hidden": hidden,
            "legal": _legal_json(legal),
            "why_not": _why_not(seat, state.phase, state.to_act, legal, hand,
                                state.lead_suit())}


def _hand_json(hand: int) -> list[str] | None:
    return None if hand < 0 else [card_text(c) for c in hand_of(hand)]


def _legal_json(legal: tuple[int, ...]) -> list[str]:
    return [ACTION_TEXT[a] for a in legal]


def _why_not(seat: Seat | None, phase: int, to_act: tuple[Seat, ...], legal: tuple[int, ...],
             hand: int, lead_suit: int) -> dict[str, JsonDict]:
    """For the seat to play: each card in ``hand`` (a mask) it may not play, with the
    reason (a message as JSON: the server renders it in the reader's language), the trick
    being led in ``lead_suit`` (-1: the seat leads). The reason is the same for every such
    card (the lead's suit, or spades not broken): it is built once, and the cards of this
    view share it (a view is only read, then encoded)."""
    if seat is None or phase != PLAYING or seat not in to_act:
        return {}
    ok = set(legal)
    barred = [c for c in cards_of(hand) if c not in ok]
    if not barred:
        return {}
    reason = message_to_json(unplayable_reason(lead_suit))
    return {card_text(c): reason for c in barred}


#: A finished deal as :meth:`SpadesState._end_deal` keeps it: its number, its dealer, the
#: bids and blind flags, the tricks taken, and the scores and bags (North-South, East-West)
#: before it; :func:`_deal_summary` makes its summary.
DealRecord = tuple[int, int, tuple[int | None, ...], tuple[bool, ...], list[int], int, int, int,
                   int]


def _deal_summary(record: DealRecord, options: dict[str, Any]) -> JsonDict:
    """The summary of a finished deal (``SpadesState.deals``) from its record."""
    deal, dealer, bids, blind, tricks, score_ns, score_ew, bags_ns, bags_ew = record
    teams = [score_team((bids[team] or 0, bids[team + 2] or 0), (blind[team], blind[team + 2]),
                        (tricks[team], tricks[team + 2]), score, bags, options)
             for team, score, bags in ((0, score_ns, bags_ns), (1, score_ew, bags_ew))]
    return {"deal": deal, "dealer": dealer,
            "bids": [_bid_text(bids[s], blind[s]) for s in range(4)], "tricks": tricks,
            "teams": teams, "scores": [teams[0]["score"], teams[1]["score"]],
            "bags": [teams[0]["bags"], teams[1]["bags"]]}


def _bid_text(bid: int | None, blind: bool) -> str | int | None:
    if bid is None:
        return None
    if bid == 0:
        return "blind nil" if blind else "nil"
    return bid


def _deal_json(entry: JsonDict) -> JsonDict:
    """A fresh copy of a finished deal's summary (views must not share mutable parts)."""
    return {**entry, "bids": list(entry["bids"]), "tricks": list(entry["tricks"]),
            "teams": [dict(t) for t in entry["teams"]], "scores": list(entry["scores"]),
            "bags": list(entry["bags"])}


def say_action(view: JsonDict, action: str) -> Message:
    """A move in words, as a hint or a replay names it ("playing 9H", "bidding 3 tricks"):
    the seat's ``view`` before it, and the move's notation."""
    act = GAME.parse_action(action)
    if act < 52:
        return Message("playing {card}", card=PlayingCard(act))
    if act == NIL:
        return Message("bidding nil")
    if act == BLIND_NIL:
        return Message("bidding blind nil")
    if act == LOOK:
        return Message("looking at the cards")
    return plural_message("bidding {n} trick", "bidding {n} tricks", "n", n=act - BID_BASE)
