"""Foursquare (Wil Su): a solitaire that builds a 4 x 4 grid of piles with every top face up.

The rules follow ``shared/seeds/foursquare.en.md`` read with the designer's own wording of
the flip rule; the decisions where the text is silent are in ``full-rules/en.md``.

Coordinates. The grid lives in a fixed 7 x 7 frame, columns ``a``..``g`` left to right and
rows ``1``..``7`` top to bottom. The first card always starts the grid at ``d4``, the
centre: the grid may grow three cells in every direction from it, which is exactly as far
as a 4 x 4 bounding box containing the first card can reach, so every placement of the
unbounded table has one fixed name, and a pile keeps its name all game.

Actions (98): ``0..48`` place the card in hand as a new pile at that cell (``place at
c3``); ``49..97`` stack it on the pile at that cell (``stack on c3``); cell = row * 7 +
column.

The board is kept in bit masks over the 49 cells (bit ``cell``): the occupied cells, the
face-up tops, and pile heights as a thermometer (``g2``: at least two cards, ``g3``: at
least three, ``full``: four); top values are packed four bits a cell in one int. The rule
kernel (:func:`flip_mask`, :func:`place_on`, :func:`legal_masks`) works on those ints and
is shared by the engine and the search bots, so both play by the same code.
"""

from __future__ import annotations

import copyreg
import random
from typing import Any, Final

from mypy_extensions import mypyc_attr

from parlour.cards import ACE, TEN, TWO, card_text, cards_of, make_card, parse_card, rank_of
from parlour.engine import (
    GAME_OVER,
    Action,
    Code,
    Game,
    IllegalAction,
    JsonDict,
    Many,
    Message,
    NotationError,
    Option,
    Outcome,
    Param,
    PlayingCard,
    Seat,
    State,
    Term,
    ascii_int,
    check_action_range,
    plural_message,
    position_fields,
    quoted,
    reduce_state,
    seeded_shuffle,
    shuffle,
)
from parlour.message import N_, YOU

SIZE: Final = 4  # the grid is at most SIZE x SIZE piles
HEIGHT: Final = 4  # a pile holds at most HEIGHT cards
MAX_DOWN: Final = 4  # more face-down tops than this after a placement loses
FRAME: Final = 2 * SIZE - 1  # 7: room for the grid to grow SIZE - 1 cells any way from the centre
CELLS: Final = FRAME * FRAME
CENTRE: Final = CELLS // 2  # d4
STACK: Final = CELLS  # stack on cell c is action STACK + c
NUM_ACTIONS: Final = 2 * CELLS
COLUMNS: Final = "abcdefg"

#: The 40 cards: ace to ten of each suit, as :mod:`parlour.cards` numbers them.
DECK: Final[tuple[int, ...]] = tuple(sorted(make_card(r, s) for s in range(4)
                                            for r in (*range(TWO, TEN + 1), ACE)))
NUM_CARDS: Final = len(DECK)


def card_value(card: int) -> int:
    """Ace 1, two 2, ... ten 10 (suits do not matter)."""
    rank = rank_of(card)
    return 1 if rank == ACE else rank + 2


VALUE: Final = {c: card_value(c) for c in DECK}

ROW_OF: Final = tuple(c // FRAME for c in range(CELLS))
COL_OF: Final = tuple(c % FRAME for c in range(CELLS))
FULL_MASK: Final = (1 << CELLS) - 1
ROW_MASK: Final = tuple(sum(1 << (r * FRAME + c) for c in range(FRAME)) for r in range(FRAME))
COL_MASK: Final = tuple(sum(1 << (r * FRAME + c) for r in range(FRAME)) for c in range(FRAME))
ROW_OTHERS: Final = tuple(ROW_MASK[ROW_OF[c]] & ~(1 << c) for c in range(CELLS))
COL_OTHERS: Final = tuple(COL_MASK[COL_OF[c]] & ~(1 << c) for c in range(CELLS))
_NOT_LAST_COL: Final = FULL_MASK & ~COL_MASK[FRAME - 1]
_NOT_FIRST_COL: Final = FULL_MASK & ~COL_MASK[0]


def _band_table(line_masks: tuple[int, ...]) -> tuple[int, ...]:
    """For each set of rows (or columns) in use, as 7 bits, the cells of the lines a pile
    may still go in without the box growing past SIZE lines."""
    table = []
    for present in range(1 << FRAME):
        if not present:
            table.append(FULL_MASK)
            continue
        low = (present & -present).bit_length() - 1
        high = present.bit_length() - 1
        table.append(sum(line_masks[i] for i in range(FRAME)
                         if high - SIZE < i < low + SIZE))
    return tuple(table)


_ROW_BAND: Final = _band_table(ROW_MASK)
_COL_BAND: Final = _band_table(COL_MASK)
_ROW_SHIFT: Final = tuple(range(0, CELLS, FRAME))


def cell_name(cell: int) -> str:
    return f"{COLUMNS[COL_OF[cell]]}{ROW_OF[cell] + 1}"


def parse_cell(text: str) -> int:
    t = text.strip().lower()
    if len(t) == 2 and t[0] in COLUMNS and t[1] in "1234567":
        return (int(t[1]) - 1) * FRAME + COLUMNS.index(t[0])
    raise NotationError("not a cell: {text} (expected a column a-g and a row 1-7, like c3)",
                        text=Code(quoted(text)))


def used_lines(occ: int) -> tuple[int, int]:
    """The rows and the columns holding piles, each as 7 bits."""
    cols = occ
    for shift in _ROW_SHIFT[1:]:
        cols |= occ >> shift
    cols &= (1 << FRAME) - 1
    rows = 0
    for r in range(FRAME):
        if occ & ROW_MASK[r]:
            rows |= 1 << r
    return rows, cols


def bits(mask: int) -> list[int]:
    """The set bits of a mask, lowest first (cells here; the same walk as a hand's cards)."""
    return cards_of(mask)


# --------------------------------------------------------------------------- rule kernel
def legal_masks(occ: int, full: int) -> tuple[int, int]:
    """Cells where a new pile may go, and cells whose pile may take another card."""
    if not occ:
        return 1 << CENTRE, 0
    near = ((occ << FRAME) | (occ >> FRAME) | ((occ & _NOT_LAST_COL) << 1)
            | ((occ & _NOT_FIRST_COL) >> 1)) & FULL_MASK & ~occ
    rows, cols = used_lines(occ)
    return near & _ROW_BAND[rows] & _COL_BAND[cols], occ & ~full


def value_range(cells: int, vals: int) -> tuple[int, int]:
    """The lowest and the highest value among the tops of ``cells`` (a non-empty mask)."""
    hi, lo = 0, 11
    while cells:
        low = cells & -cells
        v = vals >> (4 * (low.bit_length() - 1)) & 15
        if v > hi:
            hi = v
        if v < lo:
            lo = v
        cells ^= low
    return lo, hi


def flip_mask(occ: int, up: int, vals: int, cell: int, value: int, seed_mode: bool) -> int:
    """The pile tops a card of ``value`` just placed at ``cell`` turns over.

    For its row, then its column: the other piles in that line; if there are any, and the
    card is strictly higher or strictly lower than every face-up top among them (which
    holds when they are all face down), every one of their tops is turned over. A tie with
    a face-up top, or a card between them, turns nothing. In the designer's reading the
    placed card never turns itself; in the seed's literal reading (``seed_mode``) a line
    fired by the card being highest or lowest turns the card itself too (a line whose other
    tops are all face down is only turned face up).
    """
    out = 0
    for others in (occ & ROW_OTHERS[cell], occ & COL_OTHERS[cell]):
        if not others:
            continue
        ups = others & up
        if ups:
            lo, hi = value_range(ups, vals)
            if lo <= value <= hi:
                continue
            if seed_mode:
                out ^= 1 << cell
        out ^= others
    return out


def place_on(occ: int, g2: int, g3: int, full: int, up: int, vals: int, cell: int, value: int,
             seed_mode: bool) -> tuple[int, int, int, int, int, int, int]:
    """The board after a card of ``value`` goes face up at ``cell`` (a new pile or on top of
    one) and its flips; the last item is the mask of tops it turned over. No legality check."""
    bit = 1 << cell
    if occ & bit:
        if g3 & bit:
            full |= bit
        elif g2 & bit:
            g3 |= bit
        else:
            g2 |= bit
    else:
        occ |= bit
    shift = 4 * cell
    vals = vals & ~(15 << shift) | value << shift
    up |= bit
    flipped = flip_mask(occ, up, vals, cell, value, seed_mode)
    return occ, g2, g3, full, up ^ flipped, vals, flipped


def _touches(occ: int, cell: int) -> bool:
    """Whether ``cell`` is orthogonally next to an occupied cell."""
    r, c = ROW_OF[cell], COL_OF[cell]
    return any(occ >> (rr * FRAME + cc) & 1 for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1),
                                                          (r, c + 1))
               if 0 <= rr < FRAME and 0 <= cc < FRAME)


def face_down_count(occ: int, up: int) -> int:
    return (occ & ~up).bit_count()


def is_win(occ: int, up: int) -> bool:
    return occ.bit_count() == SIZE * SIZE and occ & ~up == 0


def deal_order(seed: int) -> tuple[int, ...]:
    """The order of the stock, top card first: a uniform shuffle keyed by the seed."""
    cards = list(DECK)
    seeded_shuffle(cards, seed, "deal")
    return tuple(cards)


# --------------------------------------------------------------------------- game
FLIP_READINGS: Final = ("designer", "seed")


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass it
class FoursquareGame(Game):
    id = "foursquare"
    name = "Foursquare"
    min_seats = 1
    max_seats = 1
    default_seats = 1
    num_actions = NUM_ACTIONS
    options = (
        Option("flip", str, "designer",
               "designer: the placed card never turns itself over (Wil Su's wording); seed: "
               "a line fired by a highest or lowest card turns the card over too (the short "
               "rule text read literally)", choices=FLIP_READINGS,
               label=N_("Does the card you place turn over?"),
               choice_labels=(N_("Never (the designer's rule)"),
                              N_("Yes, when its own line fires"))),
    )

    def _new(self, seed: int, seats: int, options: dict[str, Any]) -> FoursquareState:
        return FoursquareState(self, seed, options)

    def seat_name(self, seat: Seat, seats: int = 1) -> str:
        return "player" if seat == 0 else f"seat {seat}"

    def action_text(self, action: object) -> str:
        if isinstance(action, int) and not isinstance(action, bool):
            if 0 <= action < STACK:
                return f"place at {cell_name(action)}"
            if STACK <= action < NUM_ACTIONS:
                return f"stack on {cell_name(action - STACK)}"
        raise NotationError("unknown {game} action {action}", game=Term("game", self.name),
                                action=Code(quoted(action)))

    def parse_action(self, text: str) -> Action:
        words = text.strip().lower().split()
        expected = Message("expected 'place at c3' (a new pile) or 'stack on c3' (on a pile), "
                           "with a cell from a1 to g7")
        if len(words) >= 2 and words[0] in ("place", "stack") and words[1] in ("at", "on"):
            kind, rest = words[0], words[2:]
        elif len(words) >= 1 and words[0] in ("place", "stack"):
            kind, rest = words[0], words[1:]
        else:
            raise NotationError("not a Foursquare action: {text} ({expected})",
                                text=Code(quoted(text)), expected=expected)
        if len(rest) != 1:
            raise NotationError("not a Foursquare action: {text} ({expected})",
                                text=Code(quoted(text)), expected=expected)
        try:
            cell = parse_cell(rest[0])
        except NotationError as err:
            raise NotationError("not a Foursquare action: {text} ({expected})",
                                text=Code(quoted(text)), expected=err.message) from None
        return cell if kind == "place" else STACK + cell


    def from_position(self, text: str, seed: int = 0, **options: Any) -> FoursquareState:
        """A game standing at the position ``text`` (see :func:`parse_position`), the card
        in hand to place: for tests, puzzles and analysis. Its history places the cards pile
        by pile, a route to the position, not a game (the flips are not replayed), so it has
        no record; ``seed`` is only its name."""
        position = parse_position(text)
        state = self.new(seed, **options)
        assert isinstance(state, FoursquareState)
        state._set_position(position)
        return state


GAME = FoursquareGame()

# --------------------------------------------------------------------------- positions
#: The fields of a position's text, in the order it is written.
POSITION_FIELDS: Final = ("piles", "hand", "stock")


def parse_position(text: str) -> JsonDict:
    """Read a position, written (FEN-like) as ``name: value`` fields separated by ``;`` or
    new lines, in any order::

        piles: c4=3C 5D, d4=7H*; hand: 9S; stock: 2C 4H

    ``piles`` (required): each pile as its cell, ``=`` and its cards bottom first, ``*``
    after a face-down top; ``,`` between piles. ``hand``: the card to place (required).
    ``stock``: the cards under it, the next first; the cards not named anywhere follow in
    the deck's order. The piles lie within 4 x 4 (not necessarily a grid play could
    reach: a position may set up one line to test a rule on), hold 1 to 4 cards, show at
    most four tops face down, and use every card once. A clear ``ValueError`` otherwise."""
    fields = position_fields(text, POSITION_FIELDS)
    for name in ("piles", "hand"):
        if name not in fields:
            raise ValueError(f"a position needs its {name} (like 'piles: d4=7H, e4=3C 5D*; "
                             f"hand: 9S')")
    used: list[int] = []

    def cards(words: str, what: str) -> list[int]:
        try:
            out = [parse_card(w) for w in words.split()]
        except ValueError as err:
            raise ValueError(f"{what}: {err}") from None
        for c in out:
            if c not in VALUE:
                raise ValueError(f"{what}: {card_text(c)} is not in the Foursquare deck")
        used.extend(out)
        return out

    piles: list[tuple[int, list[int], bool]] = []
    for word in fields["piles"].split(","):
        if word.strip() in ("", "-") and fields["piles"].strip() in ("", "-"):
            break  # no pile yet: the first card starts the grid
        name, sep, pile = word.partition("=")
        if not sep:
            raise ValueError(f"piles: {word.strip()!r} is not a pile like d4=7H 3C*")
        where = parse_cell(name)
        down = pile.strip().endswith("*")
        stack = cards(pile.strip().rstrip("*"), f"pile {cell_name(where)}")
        if not 1 <= len(stack) <= HEIGHT:
            raise ValueError(f"piles: a pile holds 1 to {HEIGHT} cards, not {len(stack)}")
        piles.append((where, stack, not down))
    hand = cards(fields["hand"], "hand")
    if len(hand) != 1:
        raise ValueError("hand: one card")
    stock = cards(fields.get("stock", ""), "stock")
    if len(set(used)) != len(used):
        raise ValueError("a card is used twice")
    occ = sum(1 << where for where, _, _ in piles)
    if len(piles) != occ.bit_count():
        raise ValueError("piles: a cell is named twice")
    _check_grid(occ)
    if sum(not up for _, _, up in piles) > MAX_DOWN:
        raise ValueError(f"piles: more than {MAX_DOWN} face-down tops end the game")
    rest = [c for c in DECK if c not in set(used)]
    return {"piles": piles, "hand": hand[0], "stock": stock + rest}


def _check_grid(occ: int) -> None:
    """Piles within a 4 x 4 box (they need not be ones play could reach: a position may
    set up just the line a rule is tested on)."""
    for lines in used_lines(occ):
        if lines.bit_length() - (lines & -lines).bit_length() >= SIZE:
            raise ValueError(f"piles: the grid is at most {SIZE} x {SIZE}")


class FoursquareState(State):
    """A game of Foursquare. Public attributes are for reading; change it with ``apply``."""

    __slots__ = (
        "_deal",
        "_end",
        "_flipped",
        "_history",
        "_legal",
        "_may_place",
        "_may_stack",
        "_outcome",
        "_seed_mode",
        "full",
        "g2",
        "g3",
        "game",
        "num_seats",
        "occ",
        "options",
        "placed",
        "seed",
        "up",
        "vals",
    )

    def __init__(self, game: Game, seed: int, options: dict[str, Any], *,
                 blank: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.num_seats = 1
        self.options = options
        if blank:  # a clone fills in the rest (a compiled class cannot skip __init__)
            return
        self._seed_mode: bool = options["flip"] == "seed"
        self._deal = deal_order(seed)
        self.placed = 0
        self.occ = self.g2 = self.g3 = self.full = self.up = self.vals = 0
        self._history: list[tuple[Seat, Action]] = []
        self._outcome: Outcome | None = None
        self._end: str | None = None
        self._flipped = 0
        self._set_legal()

    # ------------------------------------------------------------------ reading
    @property
    def card(self) -> int | None:
        """The card in hand (the top of the stock, turned up), or None once the game ends."""
        return None if self._outcome else self._deal[self.placed]

    @property
    def stock(self) -> int:
        """Cards still face down in the stock (the card in hand not counted)."""
        return NUM_CARDS - self.placed - (0 if self._outcome else 1)

    def deal(self) -> tuple[int, ...]:
        """The whole stock order (the truth the player does not see: not for bots)."""
        return self._deal

    def height(self, cell: int) -> int:
        b = 1 << cell
        return sum(1 for m in (self.occ, self.g2, self.g3, self.full) if m & b)

    def piles(self) -> dict[int, list[int]]:
        """Each pile's cards, bottom first, by cell."""
        out: dict[int, list[int]] = {}
        for i, (_, action) in enumerate(self._history):
            out.setdefault(action % STACK, []).append(self._deal[i])
        return out

    def face_down(self) -> int:
        return face_down_count(self.occ, self.up)

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[Seat, ...]:
        return () if self._outcome else (0,)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def history(self) -> list[tuple[Seat, Action]]:
        return self._history.copy()

    def legal_actions(self, seat: Seat | None = None) -> tuple[int, ...]:
        if seat is None or seat == 0:
            return self._legal
        return ()

    def _set_legal(self) -> None:
        # two masks of cells (a mask of all 98 actions would not fit a machine word)
        self._may_place, self._may_stack = place, stack = legal_masks(self.occ, self.full)
        self._legal = tuple(bits(place) + [STACK + cell for cell in bits(stack)])

    def apply(self, action: object, seat: object = None) -> None:
        if (seat is not None and (type(seat) is not int or seat != 0)) or self._outcome:
            self.acting_seat(seat)  # raises with the reason
        if type(action) is not int or action < 0 or not (
                self._may_place >> action & 1 if action < STACK
                else self._may_stack >> (action - STACK) & 1):
            raise IllegalAction(self._why_illegal(action))
        card = self._deal[self.placed]
        (self.occ, self.g2, self.g3, self.full, self.up, self.vals,
         self._flipped) = place_on(self.occ, self.g2, self.g3, self.full, self.up, self.vals,
                                   action % STACK, VALUE[card], self._seed_mode)
        self.placed += 1
        self._history.append((0, action))
        if is_win(self.occ, self.up):
            self._finish(True, "all sixteen piles show their faces")
        elif face_down_count(self.occ, self.up) > MAX_DOWN:
            self._finish(False, f"more than {MAX_DOWN} face-down tops")
        elif self.placed == NUM_CARDS:
            self._finish(False, "the stock ran out")
        else:
            self._set_legal()

    def _finish(self, won: bool, reason: str) -> None:
        self._end = reason
        self._legal, self._may_place, self._may_stack = (), 0, 0
        left = NUM_CARDS - self.placed
        self._outcome = Outcome((float(left),), (1,)) if won else Outcome((0.0,), (2,))

    def _why_illegal(self, action: object) -> Message:
        try:
            action = check_action_range(self.game, action)
        except IllegalAction as err:
            return err.message
        if self._outcome:
            return GAME_OVER
        cell = action % STACK
        name = Code(cell_name(cell))
        occupied = self.occ >> cell & 1
        if not self.occ:
            return Message("the first card starts the grid at {cell}",
                           cell=Code(cell_name(CENTRE)))
        if action >= STACK:
            if not occupied:
                return Message("there is no pile at {cell} to stack on", cell=name)
            return Message("the pile at {cell} already holds {height} cards", cell=name,
                           height=HEIGHT)
        if occupied:
            return Message("there is already a pile at {cell}: stack on it instead", cell=name)
        if not _touches(self.occ, cell):
            return Message("{cell} is not next to a pile (a new pile goes beside one, not "
                           "diagonally)", cell=name)
        rows, cols = used_lines(self.occ | 1 << cell)
        if rows.bit_length() - (rows & -rows).bit_length() >= SIZE:
            return Message("a new pile at {cell} would make the grid more than {size} rows tall",
                           cell=name, size=SIZE)
        if cols.bit_length() - (cols & -cols).bit_length() >= SIZE:
            return Message("a new pile at {cell} would make the grid more than {size} columns "
                           "wide", cell=name, size=SIZE)
        # not reached: the cases above are all
        return Message("{cell} is not a legal placement", cell=name)

    # ------------------------------------------------------------------ views
    def view(self, seat: object) -> JsonDict:
        if seat is not None and not (type(seat) is int and seat == 0):
            raise ValueError(f"there is no seat {seat!r} in Foursquare")
        piles = self.piles()
        last = None
        if self._history:
            action = self._history[-1][1]
            last = {"action": self.game.action_text(action),
                    "card": card_text(self._deal[self.placed - 1]),
                    "flipped": [cell_name(c) for c in bits(self._flipped)]}
        events: list[JsonDict] = []
        if last is not None:
            cell = self._history[-1][1] % STACK
            events.append({"kind": "stack" if self._history[-1][1] >= STACK else "place",
                           "n": self.placed, "card": last["card"], "cell": cell_name(cell),
                           "height": self.height(cell),
                           "turned": [{"cell": name, "up": bool(self.up >> c & 1)}
                                      for c, name in zip(bits(self._flipped), last["flipped"],
                                                         strict=True)]})
        if self._outcome is not None:
            events.append({"kind": "end", "result": "won" if self._outcome.placing[0] == 1
                           else "lost", "reason": self._end,
                           "score": NUM_CARDS - self.placed
                           if self._outcome.placing[0] == 1 else None})
        legal = list(self._legal) if seat is not None else []
        rows, cols = used_lines(self.occ)
        box = None
        if self.occ:
            top, left = (rows & -rows).bit_length() - 1, (cols & -cols).bit_length() - 1
            bottom, right = rows.bit_length() - 1, cols.bit_length() - 1
            box = [cell_name(top * FRAME + left), cell_name(bottom * FRAME + right)]
        won = None if self._outcome is None else self._outcome.placing[0] == 1
        return {
            "game": "foursquare",
            "seat": seat,
            "seats": 1,
            "options": dict(self.options),
            "columns": COLUMNS,
            "rows": FRAME,
            "piles": {cell_name(c): {"cards": [card_text(x) for x in cards],
                                     "up": bool(self.up >> c & 1)}
                      for c, cards in sorted(piles.items())},
            "box": box,
            "card": None if self._outcome else card_text(self._deal[self.placed]),
            "stock": self.stock,
            "placed": self.placed,
            "face_down": self.face_down(),
            "last": last,
            "to_act": list(self.to_act),
            "legal": [self.game.action_text(a) for a in legal],
            "result": None if won is None else "won" if won else "lost",
            "reason": self._end,
            "score": None if not won else NUM_CARDS - self.placed,
            "events": events,
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # ------------------------------------------------------------------ search support
    def clone(self) -> FoursquareState:
        new = FoursquareState(self.game, self.seed, self.options, blank=True)
        new._seed_mode = self._seed_mode
        new._deal = self._deal
        new.placed = self.placed
        new.occ, new.g2, new.g3, new.full = self.occ, self.g2, self.g3, self.full
        new.up, new.vals = self.up, self.vals
        new._history = self._history.copy()
        new._outcome = self._outcome
        new._end = self._end
        new._flipped = self._flipped
        new._legal, new._may_place, new._may_stack = self._legal, self._may_place, self._may_stack
        return new

    def determinize(self, seat: Seat | None, rng: random.Random) -> FoursquareState:
        """The stock below the card in hand reshuffled: the only thing the player has not
        seen (every card on the table, face down or covered, was seen when placed)."""
        new = self.clone()
        new.seed = rng.getrandbits(63)
        if self._outcome:
            return new
        seen = self.placed + 1  # the cards placed and the card in hand
        unseen = sorted(self._deal[seen:])
        shuffle(unseen, rng)
        new._deal = self._deal[:seen] + tuple(unseen)
        return new

    def position_text(self) -> str:
        """The game as a position (see :func:`parse_position`): the piles by cell, the card
        in hand and the whole stock. The whole truth: not for bots."""
        if self._outcome:
            raise ValueError("the game is over: there is no card to place")
        piles = ", ".join(f"{cell_name(c)}={' '.join(card_text(x) for x in cards)}"
                          f"{'' if self.up >> c & 1 else '*'}"
                          for c, cards in sorted(self.piles().items())) or "-"
        stock = " ".join(card_text(c) for c in self._deal[self.placed + 1:])
        return f"piles: {piles}; hand: {card_text(self._deal[self.placed])}; stock: {stock}"

    def _set_position(self, position: JsonDict) -> None:
        """Lay the piles down pile by pile (no flips), then turn the tops as written."""
        deal: list[int] = []
        history: list[tuple[Seat, Action]] = []
        occ = g2 = g3 = full = up = vals = 0
        for where, cards, face_up in position["piles"]:
            for height, card in enumerate(cards, start=1):
                history.append((0, where if height == 1 else STACK + where))
                deal.append(card)
            bit = 1 << where
            occ |= bit
            g2 |= bit if len(cards) >= 2 else 0
            g3 |= bit if len(cards) >= 3 else 0
            full |= bit if len(cards) >= 4 else 0
            up |= bit if face_up else 0
            vals |= VALUE[cards[-1]] << (4 * where)
        self._deal = (*deal, position["hand"], *position["stock"])
        self.placed = len(history)
        self._history = history
        self.occ, self.g2, self.g3, self.full, self.up, self.vals = occ, g2, g3, full, up, vals
        self._flipped = 0
        if is_win(occ, up):
            raise ValueError("piles: sixteen piles face up: the game is already won")
        self._set_legal()

    def with_upcoming(self, order: tuple[int, ...]) -> FoursquareState:
        """This table with the card in hand and the stock under it in ``order`` (the same
        cards, any order): for analysis of what the stock may turn up."""
        if self._outcome:
            raise ValueError("the game is over: there is no stock")
        if sorted(order) != sorted(self._deal[self.placed:]):
            raise ValueError("the card in hand and the stock hold the same cards, reordered")
        new = self.clone()
        new._deal = self._deal[:self.placed] + tuple(order)
        return new

    def with_deal(self, order: tuple[int, ...]) -> FoursquareState:
        """A new game (nothing placed yet) whose stock is ``order``: for tests and analysis."""
        if sorted(order) != list(DECK):
            raise ValueError("a Foursquare stock holds each of the 40 cards once")
        new = FoursquareState(self.game, self.seed, self.options)
        new._deal = tuple(order)
        return new

    def __repr__(self) -> str:
        return (f"<FoursquareState seed={self.seed} placed={self.placed} "
                f"piles={self.occ.bit_count()} down={self.face_down()}>")


copyreg.pickle(FoursquareState, reduce_state)  # how a state is pickled (see the engine)


def describe_event(event: JsonDict,
                   names: tuple[Param, ...] | list[Param] = ("player",)) -> str:
    """One line of plain English for an event of the view's ``events`` (the placement just
    made and the tops it turned, or the end), for tables that narrate."""
    return str(narrate_event(event, names))


#: The end reasons an event carries (English text, kept in views and records), as messages.
END_REASONS: Final = {
    "all sixteen piles show their faces": Message("all sixteen piles show their faces"),
    f"more than {MAX_DOWN} face-down tops": Message("more than {count} face-down tops",
                                                     count=MAX_DOWN),
    "the stock ran out": Message("the stock ran out"),
}


def narrate_event(event: JsonDict,
                  names: tuple[Param, ...] | list[Param] = ("player",)) -> Message:
    """An event as a :class:`Message` (see :func:`describe_event`); ``names[0]`` may be
    :data:`~parlour.message.YOU` (the line is told to the player: "You place")."""
    who = names[0] if names else "player"
    if event["kind"] == "end":
        reason = END_REASONS.get(event["reason"]) or Code(event["reason"])
        if event["result"] == "won":
            return plural_message("Won: {reason}, with {n} card left in the stock.",
                                  "Won: {reason}, with {n} cards left in the stock.",
                                  "n", n=event["score"], reason=reason)
        return Message("Lost: {reason}.", reason=reason)
    card, cell = PlayingCard(parse_card(event["card"])), Code(event["cell"])
    if event["kind"] == "place":
        placed = (Message("You place {card} at {cell}, a new pile.", card=card, cell=cell)
                  if who == YOU else
                  Message("{who} places {card} at {cell}, a new pile.", who=who, card=card,
                          cell=cell))
    elif who == YOU:
        placed = Message("You stack {card} on {cell} ({height} cards).", card=card, cell=cell,
                         height=event["height"])
    else:
        placed = Message("{who} stacks {card} on {cell} ({height} cards).", who=who, card=card,
                         cell=cell, height=event["height"])
    turned = event["turned"]
    if not turned:
        return Message("{placed} Nothing turns over.", placed=placed)
    parts: list[Param] = []
    for up in (True, False):
        cells = [Code(t["cell"]) for t in turned if t["up"] == up]
        if not cells:
            continue
        joined: Param = cells[0] if len(cells) == 1 else Message(
            "{cells} and {last}", cells=Many(tuple(cells[:-1])), last=cells[-1])
        parts.append(Message("{cells} face up", cells=joined) if up
                     else Message("{cells} face down", cells=joined))
    return Message("{placed} It turns {parts}.", placed=placed, parts=Many(tuple(parts), "; "))


def parse_deal(text: str) -> tuple[int, ...]:
    """A stock order written as cards (``7H AS 10C ...``), or a shorthand of values only
    (``7 1 10 ...``, suits assigned in order), completed by the remaining cards in sorted
    order: for tests and puzzles."""
    order: list[int] = []
    used: set[int] = set()
    for word in text.replace(",", " ").split():
        number = ascii_int(word)
        if number is not None or word.upper() == "A":
            value = 1 if number is None else number
            if not 1 <= value <= 10:
                raise ValueError(f"a Foursquare value is 1 (ace) to 10, not {word!r}")
            rank = 12 if value == 1 else value - 2
            card = next((make_card(rank, s) for s in range(4)
                         if make_card(rank, s) not in used), None)
            if card is None:
                raise ValueError(f"there are only four cards of value {value}")
        else:
            card = parse_card(word)
            if card not in VALUE:
                raise ValueError(f"{word!r} is not in the Foursquare deck (ace to ten)")
            if card in used:
                raise ValueError(f"{word!r} appears twice")
        used.add(card)
        order.append(card)
    order.extend(c for c in DECK if c not in used)
    return tuple(order)



def say_action(view: JsonDict, action: str) -> Message:
    """A move in words, as a hint or a replay names it ("placing 7H at c3, a new pile"):
    the card in hand, from the view before the move."""
    act = GAME.parse_action(action)
    card = PlayingCard(parse_card(view["card"]))
    if act < STACK:
        return Message("placing {card} at {cell}, a new pile", card=card,
                       cell=Code(cell_name(act)))
    return Message("stacking {card} on {cell}", card=card, cell=Code(cell_name(act - STACK)))
