"""Hit the Deck: Uno-like shedding with command cards, a shout and a slap; 2 to 6 seats.

The rules follow ``shared/seeds/hit-the-deck.en.md``; where the text is silent the
decisions are written in ``full-rules/en.md`` (each one tested).

Seats sit clockwise 0, 1, ...; "left" is the next seat number. A whole game (rounds until
someone's total reaches the target) is one state.

Cards are *kinds* (copies of a kind are interchangeable), 38 of them:

* ``0..19`` number cards, ``5 * colour + number - 1`` (colours R, Y, G, B; numbers 1..5)
* ``20..23`` Cut the Deck and ``24..27`` Flip the Deck, one kind per colour
* ``28..32`` Hit the Deck With a Number 1..5, ``33..36`` With a Colour R, Y, G, B
* ``37`` Hit the Deck With a Hand

Actions (343): ``0..37`` play that card (``37`` plays With a Hand *without* the shout);
``38`` play With a Hand with the shout; ``39`` draw; ``40`` pass; ``41`` cut the draw pile
(after a Cut the Deck); ``42`` swap the piles (after a Flip the Deck); ``43..342`` slap the
pile, one action per 10 ms reaction-time bucket (0 ms to 2,990 ms; slower counts as the last
bucket). Notation: ``R3``, ``B cut``, ``G flip``, ``hit 4``, ``hit Y``, ``hit hand``,
``hit hand!`` (shouted), ``draw``, ``pass``, ``cut``, ``swap``, ``slap 350ms``.

The slap after a With a Hand is a simultaneous phase: ``to_act`` holds every seat that has
not slapped yet. A slap is kept out of ``history`` (and so out of every view and
observation) until every seat has slapped; then the slowest draws four.

The hot path (``legal_actions`` then ``apply``) works on bit masks: a hand is a list of
counts per kind plus a mask of the kinds held, the cards a top card accepts are a mask, and
legal actions are computed once per turn as a mask and a cached tuple.
"""

from __future__ import annotations

import copyreg
import operator
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from mypy_extensions import mypyc_attr

from parlour.cards import keyed_order
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
    OptionError,
    Outcome,
    Reaction,
    SafetyStop,
    Seat,
    State,
    Term,
    check_action_range,
    derive_seed,
    placing_by,
    position_fields,
    quoted,
    reduce_state,
    shuffle,
)
from parlour.message import N_, Named, message_from_json, message_to_json, plural_message

# ----------------------------------------------------------------------------- cards
COLOURS = "RYGB"
COLOUR_NAMES = ("red", "yellow", "green", "blue")
NUMBERS = (1, 2, 3, 4, 5)
# The constants of the hot path are Final: the compiled build uses them as constants rather
# than looking each up in the module's namespace.
NUM_KINDS: Final = 38
CUT_BASE: Final = 20
FLIP_BASE: Final = 24
HIT_NUMBER_BASE: Final = 28
HIT_COLOUR_BASE: Final = 33
HAND: Final = 37

HAND_SHOUT: Final = 38
DRAW: Final = 39
PASS: Final = 40
CUT: Final = 41
SWAP: Final = 42
SLAP_BASE: Final = 43
SLAP_STEP_MS: Final = 10
SLAP_BUCKETS: Final = 300
NUM_ACTIONS: Final = SLAP_BASE + SLAP_BUCKETS
SHOUT = "HIT THE DECK WITH A HAND!"
#: How close together the shout and the With a Hand must come, in either order, where an
#: interface times them (the web table does; the view sends it as ``shout_window_ms``).
SHOUT_WINDOW_MS = 1500

PLAY: Final = 0
DRAWN: Final = 1
CUTTING: Final = 2
SWAPPING: Final = 3
SLAP: Final = 4
OVER: Final = 5
PHASE_NAMES = ("play", "drawn", "cut", "swap", "slap", "over")
# What a played card does: nothing more than set the top, a cut, a flip, a slap.
PLAIN: Final = 0
CUTS: Final = 1
FLIPS: Final = 2
HANDS: Final = 3


def number_card(colour: int, number: int) -> int:
    return 5 * colour + number - 1


def colour_of(kind: int) -> int:
    """0..3 for R, Y, G, B; -1 for the colourless Hit the Deck cards (number, hand)."""
    if kind < CUT_BASE:
        return kind // 5
    if kind < FLIP_BASE:
        return kind - CUT_BASE
    if kind < HIT_NUMBER_BASE:
        return kind - FLIP_BASE
    if HIT_COLOUR_BASE <= kind < HAND:
        return kind - HIT_COLOUR_BASE
    return -1


def number_of(kind: int) -> int:
    """1..5 for number cards and With a Number cards; 0 for the rest."""
    if kind < CUT_BASE:
        return kind % 5 + 1
    if HIT_NUMBER_BASE <= kind < HIT_COLOUR_BASE:
        return kind - HIT_NUMBER_BASE + 1
    return 0


def is_hit(kind: int) -> bool:
    """A Hit the Deck card (With a Number, With a Colour, With a Hand): playable on anything."""
    return kind >= HIT_NUMBER_BASE


def card_value(kind: int) -> int:
    """Points for a card left in hand: a number card its number, every other card 10."""
    return kind % 5 + 1 if kind < CUT_BASE else 10


def _kind_text(kind: int) -> str:
    if kind < CUT_BASE:
        return f"{COLOURS[kind // 5]}{kind % 5 + 1}"
    if kind < FLIP_BASE:
        return f"{COLOURS[kind - CUT_BASE]} cut"
    if kind < HIT_NUMBER_BASE:
        return f"{COLOURS[kind - FLIP_BASE]} flip"
    if kind < HIT_COLOUR_BASE:
        return f"hit {kind - HIT_NUMBER_BASE + 1}"
    if kind < HAND:
        return f"hit {COLOURS[kind - HIT_COLOUR_BASE]}"
    return "hit hand"


CARD_TEXT = tuple(_kind_text(k) for k in range(NUM_KINDS))


def card_named(kind: int) -> Named:
    """A card as a message parameter: its code in English text (``G2``), its name as
    players say it where an interface renders it ("green 2", "hijau 2")."""
    if kind < CUT_BASE or kind < HIT_NUMBER_BASE or HIT_COLOUR_BASE <= kind < HAND:
        colour = Term("colour", COLOUR_NAMES[colour_of(kind)])
    if kind < CUT_BASE:
        name = Message("{colour} {number}", colour=colour, number=number_of(kind))
    elif kind < FLIP_BASE:
        name = Message("{colour} Cut the Deck", colour=colour)
    elif kind < HIT_NUMBER_BASE:
        name = Message("{colour} Flip the Deck", colour=colour)
    elif kind < HIT_COLOUR_BASE:
        name = Message("Hit the Deck With a Number {number}", number=number_of(kind))
    elif kind < HAND:
        name = Message("Hit the Deck With a Colour, {colour}", colour=colour)
    else:
        name = Message("Hit the Deck With a Hand")
    return Named(CARD_TEXT[kind], name)
VALUE: Final = tuple(card_value(k) for k in range(NUM_KINDS))
_EFFECT: Final = tuple(CUTS if CUT_BASE <= k < FLIP_BASE
                       else FLIPS if FLIP_BASE <= k < HIT_NUMBER_BASE
                       else HANDS if k == HAND else PLAIN for k in range(NUM_KINDS))

# Masks over actions 0..38: a held With a Hand may be played with or without the shout.
KIND_BITS: Final = (*(1 << k for k in range(HAND)), 1 << HAND | 1 << HAND_SHOUT)
_CLEAR: Final = tuple(~b for b in KIND_BITS)
_KINDS_MASK: Final = (1 << NUM_KINDS) - 1


def _accepts(top: int, kind: int) -> bool:
    """Whether ``kind`` may be played on ``top`` (the rule itself; tables below cache it)."""
    if is_hit(kind) or top == HAND:
        return True
    colour, number = colour_of(top), number_of(top)
    if top < CUT_BASE:  # a number card: same colour or same number
        return colour_of(kind) == colour or number_of(kind) == number
    if top < FLIP_BASE:  # Cut the Deck: same colour, or another Cut
        return colour_of(kind) == colour or CUT_BASE <= kind < FLIP_BASE
    if top < HIT_NUMBER_BASE:  # Flip the Deck: same colour, or another Flip
        return colour_of(kind) == colour or FLIP_BASE <= kind < HIT_NUMBER_BASE
    if top < HIT_COLOUR_BASE:  # With a Number n: a card showing n
        return number_of(kind) == number
    return colour_of(kind) == colour  # With a Colour c: a card of colour c


ACCEPTS: Final = tuple(sum(KIND_BITS[k] for k in range(NUM_KINDS) if _accepts(top, k))
                for top in range(NUM_KINDS))


def _chunk_table(base: int) -> list[tuple[int, ...]]:
    table: list[tuple[int, ...]] = [()] * 8192
    for bits in range(1, 8192):
        top = bits.bit_length() - 1
        table[bits] = table[bits ^ (1 << top)] + (base + top,)
    return table


_T0: Final = _chunk_table(0)
_T1: Final = _chunk_table(13)
_T2: Final = _chunk_table(26)
_DRAW_ONLY: Final = (DRAW,)
_PASS_ONLY: Final = (PASS,)
_CUT_ONLY: Final = (CUT,)
_SWAP_ONLY: Final = (SWAP,)
_DRAW_BIT: Final = 1 << DRAW
_PASS_BIT: Final = 1 << PASS
_CUT_BIT: Final = 1 << CUT
_SWAP_BIT: Final = 1 << SWAP
SLAP_ACTIONS: Final = tuple(range(SLAP_BASE, NUM_ACTIONS))
_SLAP_MASK: Final = sum(1 << a for a in SLAP_ACTIONS)


def cards_of_mask(mask: int) -> tuple[int, ...]:
    """The play actions in a mask over actions 0..38, lowest first."""
    return _T0[mask & 0x1FFF] + _T1[mask >> 13 & 0x1FFF] + _T2[mask >> 26]


def slap_action(ms: float) -> Action:
    """The slap action for a reaction time in milliseconds (clamped to the bucket range)."""
    bucket = int(max(0.0, ms)) // SLAP_STEP_MS
    return SLAP_BASE + min(bucket, SLAP_BUCKETS - 1)


def slap_ms(action: Action) -> int:
    return (action - SLAP_BASE) * SLAP_STEP_MS


#: The table's setting for the bots' slap (their reaction times: see the bot module).
BOT_SLAP_PACES = ("relaxed", "normal", "quick")
#: Readings of "two Flips played in a row" (the rules page): ``pair``, a Flip put back for
#: being the second ends the row; ``chain``, the first reading (every Flip goes back until
#: another card is played), which records made before the option name without it.
FLIP_ROWS = ("pair", "chain")
SLAP_WINDOW_MS = SLAP_BUCKETS * SLAP_STEP_MS  # a slap this late (or none) is the slowest
_SLAP_SET = frozenset(SLAP_ACTIONS)


def keyed_shuffle(cards: list[int], key: bytes) -> list[int]:
    """A uniform shuffle keyed by ``key``: the cards (kinds, below 64) in the order
    :func:`parlour.cards.keyed_order` gives (32-bit SHAKE-128 keys, as Spades deals)."""
    if len(cards) < 2:
        return list(cards)
    return keyed_order(key, cards)


COMPOSITION = ("copies", "cuts", "flips", "hit_numbers", "hit_colours", "hit_hands")


def build_deck(options: dict[str, Any]) -> list[int]:
    """The deck as a sorted list of kinds, from the composition options."""
    return list(_build_deck(tuple(options[name] for name in COMPOSITION)))


@cache
def _build_deck(composition: tuple[int, ...]) -> tuple[int, ...]:
    options = dict(zip(COMPOSITION, composition, strict=True))
    deck: list[int] = []
    for colour in range(4):
        for number in NUMBERS:
            deck += [number_card(colour, number)] * options["copies"]
        deck += [CUT_BASE + colour] * options["cuts"]
        deck += [FLIP_BASE + colour] * options["flips"]
        deck += [HIT_COLOUR_BASE + colour] * options["hit_colours"]
    for number in NUMBERS:
        deck += [HIT_NUMBER_BASE + number - 1] * options["hit_numbers"]
    deck += [HAND] * options["hit_hands"]
    return tuple(sorted(deck))


# ----------------------------------------------------------------------------- inference
#: What a seat is known to lack: layers ``(mask, count)``, newest first, each covering
#: ``count`` cards of its hand that fit none of the kinds in ``mask`` (a mask over actions
#: 0..38, as ``ACCEPTS``). Layers nest: an older layer covers fewer cards (those still held
#: from an earlier draw) and its mask includes every newer one's.
Voids = tuple[tuple[int, int], ...]
MAX_VOID_LAYERS = 3


def _lacking(voids: Voids, mask: int, held: int) -> Voids:
    """A seat holding ``held`` cards drew (or passed with nothing to draw): none of them
    fits ``mask``. Older layers keep their (smaller) share of the hand."""
    layers = [(mask, held)]
    for old_mask, count in voids:
        if count == layers[-1][1]:
            layers[-1] = (old_mask | mask, count)
        else:
            layers.append((old_mask | mask, count))
    return tuple(layers[:MAX_VOID_LAYERS])


def _played_from(voids: Voids, kind: int) -> Voids:
    """The seat played ``kind`` from its hand: every layer that could have held it is
    taken to be one card smaller (so each count stays a sure lower bound), but never
    smaller than the layer inside it."""
    bit = KIND_BITS[kind]
    layers = []
    inside = 0  # the count of the layer inside this one: a layer holds at least as many
    for mask, count in reversed(voids):
        count = max(count - (not mask & bit), inside)
        if count > inside:  # else the inner layer says all this one does, and more
            layers.append((mask, count))
        inside = count
    return tuple(reversed(layers))


def _deal_lacking(pool: list[int], voids: Voids) -> tuple[list[int], list[int]]:
    """Pick, from the shuffled ``pool``, the cards that ``voids`` pins down: for each
    layer, innermost first, the first cards in pool order that fit none of its mask.
    Returns (picked, the rest of the pool, in order). A layer the pool cannot fill (never
    with what a seat truly knows) takes what fits."""
    picked: list[int] = []
    taken = 0
    for mask, count in reversed(voids):
        need = count - taken
        if need <= 0:
            continue
        rest = []
        for card in pool:
            if need and not KIND_BITS[card] & mask:
                picked.append(card)
                need -= 1
            else:
                rest.append(card)
        pool = rest
        taken = count - need
    return picked, pool


# ----------------------------------------------------------------------------- notation
ACTION_TEXT = (*CARD_TEXT, "hit hand!", "draw", "pass", "cut", "swap",
               *(f"slap {slap_ms(a)}ms" for a in SLAP_ACTIONS))
_PARSE: dict[str, int] = {}
for _k in range(NUM_KINDS):
    _PARSE[CARD_TEXT[_k].lower()] = _k
for _c, (_letter, _name) in enumerate(zip(COLOURS.lower(), COLOUR_NAMES, strict=True)):
    for _n in NUMBERS:
        _PARSE[f"{_name} {_n}"] = _PARSE[f"{_name}{_n}"] = number_card(_c, _n)
        _PARSE[f"{_n}{_letter}"] = number_card(_c, _n)
    for _base, _word in ((CUT_BASE, "cut"), (FLIP_BASE, "flip")):
        for _col in (_letter, _name):
            _PARSE[f"{_col} {_word}"] = _PARSE[f"{_col}{_word}"] = _base + _c
            _PARSE[f"{_word} {_col}"] = _base + _c
    _PARSE[f"hit {_name}"] = _PARSE[f"hit{_letter}"] = HIT_COLOUR_BASE + _c
for _n in NUMBERS:
    _PARSE[f"hit{_n}"] = HIT_NUMBER_BASE + _n - 1
_PARSE.update({
    "hit hand!": HAND_SHOUT, "hit hand shout": HAND_SHOUT, "hand!": HAND_SHOUT,
    "hand": HAND, "hithand": HAND,
    "draw": DRAW, "pass": PASS, "cut": CUT, "cut the deck": CUT,
    "swap": SWAP, "swap piles": SWAP, "swap the piles": SWAP,
})
_SLAP_RE = re.compile(r"^slap\s*([0-9]{1,9})\s*(ms)?\+?$", re.ASCII)
_SHOUT_WORDS = "hit the deck with a hand"


def is_shout(text: str) -> bool:
    """Whether ``text`` is the shout: the phrase (any case, punctuation optional)."""
    words = re.sub(r"[^a-z ]", " ", text.lower()).split()
    return " ".join(words) == _SHOUT_WORDS


# ----------------------------------------------------------------------------- game
@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass it
class HitTheDeckGame(Game):
    id = "hit-the-deck"
    name = "Hit the Deck"
    min_seats = 2
    max_seats = 6
    default_seats = 4
    num_actions = NUM_ACTIONS
    options = (
        Option("target", int, 100, "a total that ends the game: whoever reaches it loses, "
               "the lowest total wins", minimum=1, maximum=1000, label=N_("Losing total")),
        Option("hand_size", int, 7, "cards dealt to each player", minimum=1, maximum=15,
               label=N_("Cards in a hand")),
        Option("copies", int, 4, "number cards of each number 1-5 in each colour",
               minimum=0, maximum=8, label=N_("Number cards")),
        Option("cuts", int, 2, "Cut the Deck cards in each colour", minimum=0, maximum=8,
               label=N_("Cut the Deck cards")),
        Option("flips", int, 1, "Flip the Deck cards in each colour", minimum=0, maximum=8,
               label=N_("Flip the Deck cards")),
        Option("hit_numbers", int, 2, "Hit the Deck With a Number cards for each number 1-5",
               minimum=0, maximum=8, label=N_("Hit with a Number cards")),
        Option("hit_colours", int, 1, "Hit the Deck With a Colour cards for each colour",
               minimum=0, maximum=8, label=N_("Hit with a Colour cards")),
        Option("hit_hands", int, 4, "Hit the Deck With a Hand cards", minimum=0, maximum=16,
               label=N_("Hit with a Hand cards")),
        Option("flips_in_a_row", str, "pair", "a Flip played right after a Flip goes back "
               "into the draw pile and does nothing; pair: the next Flip after it counts as a "
               "first again; chain: every Flip goes back until another card is played (the "
               "first reading, kept for old records: two players can pass one Flip back and "
               "forth for ever)", choices=FLIP_ROWS, label=N_("Flips in a row"),
               choice_labels=(N_("only the second goes back"),
                              N_("each goes back until another card is played")),
               legacy="chain"),
        Option("max_turns", int, 2000, "a round reaching this many moves ends as if blocked "
               "(everyone scores the cards in hand)", minimum=20, maximum=5000,
               label=N_("Most moves in a round")),
        Option("max_rounds", int, 100, "the game ends after this many rounds, and the lowest "
               "total wins", minimum=1, maximum=200, label=N_("Most rounds")),
        Option("bot_slap", str, "normal", "how quickly the bots slap the pile",
               choices=BOT_SLAP_PACES, label=N_("Bots' slap speed"),
               choice_labels=(N_("relaxed"), N_("normal, like a person"), N_("quick"))),
    )

    def _new(self, seed: int, seats: int, options: dict[str, Any]) -> HitTheDeckState:
        deck = build_deck(options)
        need = seats * options["hand_size"] + 2
        if len(deck) < need:
            raise OptionError("a deck of {size} cards is too small to deal {hand} cards to {seats} "
                              "players (at least {need} are needed)", size=len(deck),
                              hand=options["hand_size"], seats=seats, need=need)
        if all(k == HAND for k in deck):
            raise OptionError("the deck needs at least one card that is not a With a Hand")
        return HitTheDeckState(self, seed, seats, options, deck)

    def action_text(self, action: object) -> str:
        if type(action) is int and 0 <= action < NUM_ACTIONS:
            return ACTION_TEXT[action]
        raise NotationError("unknown {game} action {action}", game=Term("game", self.name),
                                action=Code(quoted(action)))

    def parse_action(self, text: str) -> Action:
        t = " ".join(str(text).strip().lower().split())
        action = _PARSE.get(t)
        if action is not None:
            return action
        if is_shout(t):
            return HAND_SHOUT
        m = _SLAP_RE.match(t)
        if m:
            return slap_action(int(m[1]))
        raise NotationError(
            "not a Hit the Deck action: {text} (expected a card like R3, 'B cut', 'G flip', "
            "'hit 4', 'hit Y', 'hit hand' or 'hit hand!' (with the shout), or draw, pass, cut, "
            "swap, or a slap like 'slap 350ms')", text=Code(quoted(text)))


    def from_position(self, text: str, seed: int = 0, **options: Any) -> HitTheDeckState:
        """A game whose first round stands at the position ``text`` (see
        :func:`parse_position`): for tests, puzzles and analysis. ``seed`` keys what happens
        next (reshuffles, cuts, later deals); the position has no record of its own."""
        position = parse_position(text)
        state = self.new(seed, len(position["hands"]), **options)
        assert isinstance(state, HitTheDeckState)
        state._set_position(position)
        return state


GAME = HitTheDeckGame()

# ----------------------------------------------------------------------------- positions
#: The fields of a position's text, in the order it is written.
POSITION_FIELDS = ("hands", "draw", "discard", "to act", "phase", "direction", "scores",
                   "last flip")
_POSITION_PHASES = {"play": PLAY, "cut": CUTTING, "swap": SWAPPING}


def _cards_text(kinds: Sequence[int]) -> str:
    return ", ".join(CARD_TEXT[k] for k in kinds) or "-"


def _parse_cards(text: str, what: str) -> list[int]:
    if text.strip() in ("", "-"):
        return []
    out = []
    for word in text.split(","):
        kind = _PARSE.get(" ".join(word.strip().lower().split()), -1)
        if not 0 <= kind < NUM_KINDS:
            raise ValueError(f"{what}: {word.strip()!r} is not a card (like R3, 'B cut', "
                             f"'G flip', 'hit 4', 'hit Y' or 'hit hand')")
        out.append(kind)
    return out


def parse_position(text: str) -> JsonDict:
    """Read a position, the text form of a round between turns (FEN-like): fields
    ``name: value`` separated by ``;`` or new lines, in any order::

        hands: R1, hit 3 | G3, G4 | B5; draw: Y1, Y2; discard: B1, R3; to act: 0;
        phase: play; direction: left; scores: 4, 7, 9; last flip: no

    ``hands`` (required: one per seat, ``|`` between seats, cards by ``,``), ``draw`` and
    ``discard`` (bottom card first: the draw pile's last card is drawn next, the discard
    pile's last card is the top; ``-`` for none; the discard pile is never empty); ``to
    act`` (the seat to play, 0 by default); ``phase`` (``play``, or ``cut``/``swap`` when a
    Cut or Flip on top calls for it); ``direction`` (``left``: to the next seat number);
    ``scores`` (the totals of earlier rounds); ``last flip`` (``yes`` when a Flip played
    now is the second in a row and goes back into the draw pile: the last card played was a
    Flip, one that swapped the piles under the ``pair`` reading). A clear
    ``ValueError`` for anything else."""
    fields = position_fields(text, POSITION_FIELDS)
    if "hands" not in fields:
        raise ValueError("a position needs its hands ('hands: R1, G2 | Y3')")
    hands = [_parse_cards(h, f"hand {i}") for i, h in enumerate(fields["hands"].split("|"))]
    if not HitTheDeckGame.min_seats <= len(hands) <= HitTheDeckGame.max_seats:
        raise ValueError(f"Hit the Deck is played by 2 to 6 seats, not {len(hands)}")
    if not all(hands):
        raise ValueError("every hand holds a card between turns (going out ends the round)")
    discard = _parse_cards(fields.get("discard", "R1"), "discard")
    if not discard:
        raise ValueError("the discard pile always shows a top card")
    to_act = fields.get("to act", "0")
    if not to_act.isdigit() or int(to_act) >= len(hands):
        raise ValueError(f"'to act' is a seat from 0 to {len(hands) - 1}, not {to_act!r}")
    phase = fields.get("phase", "play")
    if phase not in _POSITION_PHASES:
        raise ValueError(f"a position's phase is play, cut or swap, not {phase!r}")
    need = {"play": None, "cut": CUTS, "swap": FLIPS}[phase]
    if need is not None and _EFFECT[discard[-1]] != need:
        raise ValueError(f"the phase {phase} needs a {'Cut' if need == CUTS else 'Flip'} "
                         f"the Deck on top")
    direction = fields.get("direction", "left")
    if direction not in ("left", "right"):
        raise ValueError(f"the direction is left or right, not {direction!r}")
    scores_text = fields.get("scores", ", ".join("0" * len(hands)))
    scores = [w.strip() for w in scores_text.split(",")]
    if len(scores) != len(hands) or not all(w.isdigit() for w in scores):
        raise ValueError(f"scores are {len(hands)} whole numbers, not {scores_text!r}")
    last_flip = fields.get("last flip", "no")
    if last_flip not in ("yes", "no"):
        raise ValueError(f"'last flip' is yes or no, not {last_flip!r}")
    return {"hands": hands, "draw": _parse_cards(fields.get("draw", "-"), "draw"),
            "discard": discard, "to_act": int(to_act), "phase": phase,
            "direction": 1 if direction == "left" else -1,
            "scores": [int(w) for w in scores], "last_flip": last_flip == "yes"}


_TO_ACT: Final = tuple(tuple((s,) for s in range(n)) for n in range(7))


class HitTheDeckState(State):
    """A game of Hit the Deck. Public attributes are for reading; change it with ``apply``.

    Piles are lists of kinds with the top card last: ``draw[-1]`` is drawn next and
    ``discard[-1]`` is the top of the discard pile (also kept in ``top``).
    """

    __slots__ = (
        "_counts",
        "_deck",
        "_events",
        "_known",
        "_legal",
        "_legal_mask",
        "_max_turns",
        "_moves",
        "_outcome",
        "_passes",
        "_past",
        "_played",
        "_plays",
        "_present",
        "_rand",
        "_seats",
        "_slap_order",
        "_slap_times",
        "_to_act",
        "_unseen",
        "_voids",
        "dealer",
        "direction",
        "discard",
        "draw",
        "game",
        "last_flip",
        "last_slap",
        "num_seats",
        "options",
        "phase",
        "round",
        "rounds",
        "scores",
        "seed",
        "shouted",
        "sizes",
        "slapper",
        "top",
        "turn",
    )
    # The fields whose type mypy cannot take from their first assignment (in _set_position,
    # from parsed text, or a tuple of one length first); ``round`` replaces the base's
    # read-only property.
    round: int
    top: int
    draw: list[int]
    discard: list[int]
    direction: int  # 1: play goes left, -1: right
    last_flip: bool
    _max_turns: int
    _to_act: tuple[Seat, ...]
    _legal: tuple[Action, ...]
    _moves: list[tuple[Seat, Action]]
    _plays: list[tuple[Seat, Action]]  # the cards among this round's moves, kept as they come
    _played: list[int]  # how many of each kind were played this round (a shouted Hand: HAND)
    _events: list[JsonDict]
    _voids: list[Voids]
    _slap_times: list[int]
    _slap_order: list[tuple[Seat, Action]]

    def __init__(self, game: Game, seed: int, seats: int, options: dict[str, Any],
                 deck: list[int], *, blank: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.num_seats = seats
        self.options = options
        self._deck = deck
        if blank:  # a clone fills in the rest (a compiled class cannot skip __init__)
            return
        self._max_turns = options["max_turns"]
        self._seats = _TO_ACT[seats]  # (seat,) for each seat
        self._past: tuple[tuple[tuple[Seat, Action], ...], ...] = ()
        self.scores = [0] * seats
        self.rounds: list[JsonDict] = []  # one summary per finished round
        self._outcome: Outcome | None = None
        self.last_slap: JsonDict | None = None
        self.round = 0
        self._start_round()

    # ------------------------------------------------------------------ positions
    def position_text(self) -> str:
        """This round as a position (see :func:`parse_position`): between turns only (the
        phases play, cut and swap); hands sorted. The whole truth: not for bots."""
        phase = next((name for name, p in _POSITION_PHASES.items() if p == self.phase), None)
        if phase is None:
            raise ValueError(f"a position is written between turns, not in the "
                             f"{PHASE_NAMES[self.phase]} phase")
        hands = " | ".join(_cards_text(self.hand(s)) for s in range(self.num_seats))
        return (f"hands: {hands}; draw: {_cards_text(self.draw)}; "
                f"discard: {_cards_text(self.discard)}; to act: {self.turn}; "
                f"phase: {phase}; direction: {'left' if self.direction == 1 else 'right'}; "
                f"scores: {', '.join(map(str, self.scores))}; "
                f"last flip: {'yes' if self.last_flip else 'no'}")

    def _set_position(self, position: JsonDict) -> None:
        """Stand the round (just dealt) at ``position``, as :func:`parse_position` reads it."""
        n = self.num_seats
        self._counts = [[0] * NUM_KINDS for _ in range(n)]
        self._present = [0] * n
        for seat, hand in enumerate(position["hands"]):
            for kind in hand:
                self._counts[seat][kind] += 1
                self._present[seat] |= KIND_BITS[kind]
        self.sizes = [len(h) for h in position["hands"]]
        self.draw = list(position["draw"])
        self._known = [False] * len(self.draw)
        self.discard = list(position["discard"])
        self.top = self.discard[-1]
        self.direction = position["direction"]
        self.scores = list(position["scores"])
        self.last_flip = position["last_flip"]
        self._events = []
        self._unseen = 0
        self._voids = [()] * n
        self._passes = 0
        seat, phase = position["to_act"], _POSITION_PHASES[position["phase"]]
        if phase == PLAY:
            self._turn(seat)
        else:
            self._forced(seat, phase)

    # ------------------------------------------------------------------ randomness
    def _below(self, event: str, n: int) -> int:
        """A number in ``0..n-1`` for the next random event of this round, keyed by the
        seed, the round and a counter of the round's random events."""
        self._rand += 1
        return derive_seed(self.seed, event, self.round, self._rand) % n

    def _shuffle(self, cards: list[int], event: str) -> list[int]:
        """``cards`` in an order keyed by the seed, the round and the event counter."""
        self._rand += 1
        return keyed_shuffle(cards, b"%d:%s:%d:%d" % (self.seed, event.encode(), self.round,
                                                      self._rand))

    # ------------------------------------------------------------------ dealing
    def _start_round(self) -> None:
        self.round += 1
        n = self.num_seats
        self.dealer = dealer = (n - 1 + self.round - 1) % n
        self.direction = 1
        self._rand = 0
        deck = self._shuffle(self._deck, "deal")
        size = self.options["hand_size"]
        self._counts = counts = [[0] * NUM_KINDS for _ in range(n)]
        self._present = present = [0] * n
        for s in range(n):
            c = counts[s]
            for k in deck[s * size:(s + 1) * size]:
                c[k] += 1
                present[s] |= KIND_BITS[k]
        self.sizes = [size] * n
        self.draw = draw = deck[n * size:]
        self.discard = [draw.pop()]
        self._known = [False] * len(draw)  # (a reburied Hand below keeps the count)
        self._moves = []
        self._plays = []
        self._played = [0] * NUM_KINDS
        self._events = []
        self._unseen = 0
        self._voids = [()] * n
        self._passes = 0
        self.last_flip = False
        self.slapper = -1
        self.shouted = False
        self._slap_times = []
        self._slap_order = []
        first = self.discard[-1]
        if first == HAND and any(k != HAND for k in draw):
            while first == HAND:
                self._events.append({"type": "reburied", "card": CARD_TEXT[HAND]})
                draw.insert(self._below("rebury", len(draw)), HAND)  # anywhere but the top
                first = draw.pop()
            self.discard[-1] = first
        self.top = first
        self._events.append({"type": "first", "card": CARD_TEXT[first]})
        self._expose((dealer + 1) % n)

    # ------------------------------------------------------------------ turns
    def _expose(self, seat: Seat) -> None:
        """The top card was put down without being played (turned first, or cut): its
        command acts on ``seat``."""
        effect = _EFFECT[self.top]
        if effect == CUTS:
            self._forced(seat, CUTTING)
        elif effect == FLIPS:
            self._forced(seat, SWAPPING)
        else:
            self._turn(seat)

    def _forced(self, seat: Seat, phase: int) -> None:
        self.phase = phase
        self.turn = seat
        self._to_act = self._seats[seat]
        if phase == CUTTING:
            self._legal, self._legal_mask = _CUT_ONLY, _CUT_BIT
        else:
            self._legal, self._legal_mask = _SWAP_ONLY, _SWAP_BIT

    def _turn(self, seat: Seat) -> None:
        """``seat`` plays on the top card."""
        if len(self._moves) >= self._max_turns:  # the safety stop
            self._end_round(None, stopped=True)
            return
        self.phase = PLAY
        self.turn = seat
        self._to_act = self._seats[seat]
        mask = self._present[seat] & ACCEPTS[self.top]
        if mask:
            self._legal_mask = mask
            self._legal = _T0[mask & 0x1FFF] + _T1[mask >> 13 & 0x1FFF] + _T2[mask >> 26]
        elif self.draw or len(self.discard) > 1:
            self._legal, self._legal_mask = _DRAW_ONLY, _DRAW_BIT
        else:
            self._legal, self._legal_mask = _PASS_ONLY, _PASS_BIT

    # ------------------------------------------------------------------ contract
    @property
    def to_act(self) -> tuple[Seat, ...]:
        return self._to_act

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def history(self) -> list[tuple[Seat, Action]]:
        """Every action so far; slaps join it only once every seat has slapped."""
        return [m for r in self._past for m in r] + self._moves

    def reaction(self) -> Reaction | None:
        """The slap is timed: every seat slaps against the clock (see the engine's
        :class:`~parlour.engine.Reaction`); a slap missing after 3 s counts as 2,990 ms."""
        if self.phase != SLAP:
            return None
        return Reaction(key=(self.round, len(self._moves)), name="slap",
                        window_ms=SLAP_WINDOW_MS, action=slap_action, ms=slap_ms,
                        actions=_SLAP_SET)

    def legal_actions(self, seat: Seat | None = None) -> tuple[int, ...]:
        if seat is None or seat == self.turn:
            return self._legal
        if self.phase == SLAP and seat in self._to_act:
            return SLAP_ACTIONS
        return ()

    def apply(self, action: object, seat: object = None) -> None:
        turn = self.turn
        if (seat is not None and (type(seat) is not int or seat != turn)) or turn < 0 \
                or type(action) is not int \
                or action < 0:
            self._apply_other(action, seat)
            return
        if not self._legal_mask >> action & 1:
            raise IllegalAction(self._why_illegal(action, turn))
        self._moves.append((turn, action))
        if action <= HAND_SHOUT:
            self._plays.append((turn, action))
            self._play(turn, action)
        elif action == DRAW:
            self._draw(turn)
        elif action == PASS:
            self._pass(turn)
        elif action == CUT:
            self._cut(turn)
        else:
            self._swap(turn)

    def _apply_other(self, action: object, seat: object) -> None:
        """Slaps, and every action that is refused."""
        seat = self.acting_seat(seat)  # raises when seat may not act
        if self.phase != SLAP:
            raise IllegalAction(self._why_illegal(action, seat))
        if type(action) is not int or not SLAP_BASE <= action < NUM_ACTIONS:
            raise IllegalAction(self._why_illegal(action, seat))
        self._slap_times[seat] = action - SLAP_BASE
        self._slap_order.append((seat, action))
        self._to_act = tuple(s for s in self._to_act if s != seat)
        if not self._to_act:
            self._resolve_slap()

    # ------------------------------------------------------------------ playing
    def _play(self, turn: Seat, action: Action) -> None:
        kind = HAND if action == HAND_SHOUT else action
        self._played[kind] += 1
        if self._voids[turn] and self.phase == PLAY:
            self._voids[turn] = _played_from(self._voids[turn], kind)
        counts = self._counts[turn]
        left = counts[kind] - 1
        counts[kind] = left
        if not left:
            self._present[turn] &= _CLEAR[kind]
        size = self.sizes[turn] - 1
        self.sizes[turn] = size
        self._passes = 0
        if not size:  # going out ends the round before the card's instruction
            self.discard.append(kind)
            self.top = kind
            self._end_round(turn)
            return
        effect = _EFFECT[kind]
        nxt = (turn + self.direction) % self.num_seats
        if effect == PLAIN:
            self.discard.append(kind)
            self.top = kind
            self.last_flip = False
            self._turn(nxt)
        elif effect == CUTS:
            self.discard.append(kind)
            self.top = kind
            self.last_flip = False
            self._forced(nxt, CUTTING)
        elif effect == FLIPS:
            if self.last_flip:  # the second Flip in a row goes back into the draw pile
                draw = self.draw
                draw.insert(self._below("flip back", len(draw) + 1), kind)
                # where it went is secret: no place in the pile is known for sure now
                self._known = [False] * len(draw)
                self._events.append({"type": "flip back", "seat": turn})
                # It did nothing, so it starts no row: the next Flip is a first again
                # (under the first reading, every Flip goes back until another card).
                self.last_flip = self.options["flips_in_a_row"] == "chain"
                self._turn(nxt)
            else:
                self.discard.append(kind)
                self.top = kind
                self.last_flip = True
                self._forced(nxt, SWAPPING)
        else:
            self.discard.append(kind)
            self.top = kind
            self.last_flip = False
            self._start_slap(turn, action == HAND_SHOUT)

    def _take(self) -> int:
        """The top card of the draw pile (refilled from the discards first if empty), or
        -1 when there is no card to take."""
        draw = self.draw
        if not draw:
            if len(self.discard) < 2:
                return -1
            self._reshuffle()
            draw = self.draw
        self._known.pop()
        return draw.pop()

    def _reshuffle(self) -> None:
        """The discards except the top, shuffled, become the draw pile."""
        cards = self.discard
        top = cards.pop()
        self.draw = cards = self._shuffle(cards, "reshuffle")
        self._known = [False] * len(cards)
        self.discard = [top]
        self._unseen = 0
        self._events.append({"type": "reshuffle", "cards": len(cards)})

    def _give(self, seat: Seat, count: int) -> int:
        """``seat`` draws up to ``count`` cards; returns how many there were."""
        counts, drawn = self._counts[seat], 0
        for _ in range(count):
            card = self._take()
            if card < 0:
                break
            counts[card] += 1
            self._present[seat] |= KIND_BITS[card]
            drawn += 1
        self.sizes[seat] += drawn
        return drawn

    def _draw(self, turn: Seat) -> None:
        self._voids[turn] = _lacking(self._voids[turn], ACCEPTS[self.top], self.sizes[turn])
        card = self._take()  # legal only when a card can be taken
        self._counts[turn][card] += 1
        present = self._present[turn] | KIND_BITS[card]
        self._present[turn] = present
        self.sizes[turn] += 1
        self._passes = 0
        self.phase = DRAWN
        mask = present & ACCEPTS[self.top]  # only the card just drawn can fit
        self._legal_mask = mask | _PASS_BIT
        self._legal = _T0[mask & 0x1FFF] + _T1[mask >> 13 & 0x1FFF] + _T2[mask >> 26] \
            + _PASS_ONLY

    def _pass(self, turn: Seat) -> None:
        if self.phase == PLAY:  # nothing to play and nothing to draw
            self._voids[turn] = _lacking(self._voids[turn], ACCEPTS[self.top],
                                         self.sizes[turn])
            self._passes += 1
            if self._passes >= self.num_seats:
                self._events.append({"type": "blocked"})
                self._end_round(None)
                return
        self._turn((turn + self.direction) % self.num_seats)

    def _cut(self, turn: Seat) -> None:
        """``turn`` lifts about half the draw pile; the middle card of the lifted half goes
        face up on the discard pile. That is their turn."""
        nxt = (turn + self.direction) % self.num_seats
        if not self.draw and len(self.discard) > 1:
            self._reshuffle()
        draw = self.draw
        n = len(draw)
        if not n:
            self._events.append({"type": "cut", "seat": turn, "card": None})
            self._turn(nxt)
            return
        low = max(1, -(-n // 3))
        lifted = low + self._below("cut", max(1, 2 * n // 3) - low + 1)
        card = draw.pop(n - (lifted + 1) // 2)
        self._known.pop(n - (lifted + 1) // 2)
        self.discard.append(card)
        self.top = card
        self._events.append({"type": "cut", "seat": turn, "card": CARD_TEXT[card],
                             "lifted": lifted})
        self._expose(nxt)

    def _swap(self, turn: Seat) -> None:
        """``turn`` turns the draw pile face up as the discard pile and the discard pile
        face down as the draw pile; the direction of play reverses."""
        if not self.draw and len(self.discard) > 1:
            self._reshuffle()
        self.direction = -self.direction
        if self.draw:
            draw, discard = self.discard[::-1], self.draw[::-1]
            # The old discards, reversed, are public but for those a swap turned up unseen.
            unseen = self._unseen
            known = [i >= unseen for i in range(len(draw))][::-1]
            buried = 0
            while _EFFECT[discard[-1]] == FLIPS and len(discard) > 1:
                draw.insert(self._below("bury", len(draw) + 1), discard.pop())
                buried += 1
            if buried:  # where a Flip went is secret: no place is known for sure
                known = [False] * len(draw)
            self.draw, self.discard, self._known = draw, discard, known
            self.top = discard[-1]
            self._unseen = len(discard) - 1
            self._events.append({"type": "swap", "seat": turn, "card": CARD_TEXT[self.top],
                                 "buried": buried})
        else:
            self._events.append({"type": "swap", "seat": turn, "card": None, "buried": 0})
        self._turn((turn + self.direction) % self.num_seats)

    # ------------------------------------------------------------------ the slap
    def _start_slap(self, player: Seat, shouted: bool) -> None:
        self.slapper = player
        self.shouted = shouted
        if not shouted:
            got = self._give(player, 4)
            self._events.append({"type": "penalty", "seat": player, "why": "no shout",
                                 "cards": got})
        self.phase = SLAP
        self.turn = -1
        self._slap_times = [-1] * self.num_seats
        self._slap_order = []
        self._to_act = tuple(range(self.num_seats))
        self._legal, self._legal_mask = SLAP_ACTIONS, _SLAP_MASK

    def _resolve_slap(self) -> None:
        times = self._slap_times
        worst = max(times)
        slowest = [s for s, t in enumerate(times) if t == worst]
        loser = slowest[0] if len(slowest) == 1 else slowest[self._below("slap tie",
                                                                         len(slowest))]
        self._moves.extend(self._slap_order)
        self._slap_order = []
        got = self._give(loser, 4)
        self.last_slap = {"round": self.round, "player": self.slapper, "shouted": self.shouted,
                          "ms": [t * SLAP_STEP_MS for t in times], "slowest": loser,
                          "tied": slowest if len(slowest) > 1 else [], "cards": got}
        self._events.append({"type": "slap", **self.last_slap})
        self._turn((self.slapper + self.direction) % self.num_seats)

    # ------------------------------------------------------------------ scoring
    def hand_points(self, seat: Seat) -> int:
        return sum(map(operator.mul, self._counts[seat], VALUE))

    def _end_round(self, out: Seat | None, stopped: bool = False) -> None:
        """The round is over: ``out`` went out (None: blocked, or ``stopped`` by the
        ``max_turns`` safety stop, which scores as a block and says so)."""
        n = self.num_seats
        points = [0 if s == out else self.hand_points(s) for s in range(n)]
        for s in range(n):
            self.scores[s] += points[s]
        self.rounds.append({"round": self.round, "dealer": self.dealer, "out": out,
                            "blocked": out is None, "points": points,
                            "scores": list(self.scores),
                            "stopped": message_to_json(round_stop(self.round, self._max_turns))
                            if stopped else None})
        self._events.append({"type": "out" if out is not None else "round over",
                             "seat": out, "points": points})
        self._past += (tuple(self._moves),)
        self._moves = []
        self._plays = []
        self._played = [0] * NUM_KINDS
        if max(self.scores) >= self.options["target"] or \
                self.round >= self.options["max_rounds"]:
            self._outcome = Outcome(tuple(self.scores),
                                    placing_by(self.scores, higher_is_better=False))
            self.phase = OVER
            self.turn = -1
            self._to_act = ()
            self._legal, self._legal_mask = (), 0
            return
        self._start_round()

    @property
    def safety_stops(self) -> tuple[SafetyStop, ...]:
        """Rounds ended by ``max_turns``; the match, if ``max_rounds`` ended it."""
        stops = [SafetyStop("max_turns", r["round"], False, message_from_json(r["stopped"]))
                 for r in self.rounds if r["stopped"]]
        stop = match_stop(self.options, self.scores, self.round, self._outcome)
        if stop is not None:
            stops.append(SafetyStop("max_rounds", self.round, True, stop))
        return tuple(stops)

    @property
    def round_actions(self) -> int:
        """How many actions this round has seen (slaps count once all are in)."""
        return len(self._moves)

    # ------------------------------------------------------------------ explanations
    def _why_illegal(self, action: object, seat: Seat) -> Message:
        try:
            check_action_range(self.game, action)
        except IllegalAction as err:
            return err.message
        assert isinstance(action, int)
        text = Code(self.game.action_text(action))
        phase = self.phase
        if phase == OVER:
            return GAME_OVER
        if phase == SLAP:
            return Message("everyone slaps the pile now: {action} is not a slap", action=text)
        if action >= SLAP_BASE:
            return Message("no slapping now: the slap follows a Hit the Deck With a Hand")
        if phase == CUTTING:
            return Message("you must cut the deck first (a Cut the Deck is on the pile), not "
                           "{action}", action=text)
        if phase == SWAPPING:
            return Message("you must swap the piles first (a Flip the Deck is on the pile), not "
                           "{action}", action=text)
        if action == CUT:
            return Message("there is nothing to cut: cut only when a Cut the Deck calls for it")
        if action == SWAP:
            return Message("there is nothing to swap: swap only when a Flip the Deck calls for "
                           "it")
        if action == DRAW:
            if phase == DRAWN:
                return Message("you have drawn already: play the card you drew, or pass")
            if self._legal == _PASS_ONLY:
                return Message("the draw pile is empty and nothing can be reshuffled: pass")
            return Message("you may draw only when no card in your hand can be played")
        if action == PASS:
            return Message("you may pass only after drawing, or when there is nothing to draw")
        kind = HAND if action == HAND_SHOUT else action
        if not self._counts[seat][kind]:
            return Message("you do not hold {card}", card=card_named(kind))
        return unfit_reason(phase, self.top, kind)

    # ------------------------------------------------------------------ views
    def held(self, seat: Seat) -> list[int]:
        """How many cards of each kind ``seat`` holds, indexed by kind: the live list, not
        to be changed (the truth: for search on determinized states, not for bots)."""
        return self._counts[seat]

    def hand(self, seat: Seat) -> list[int]:
        """The kinds in ``seat``'s hand, one entry per card, sorted (the truth: not for bots)."""
        counts = self._counts[seat]
        out: list[int] = []
        for k in cards_of_mask(self._present[seat] & _KINDS_MASK):
            for _ in range(counts[k]):  # no list made per kind (the compiled build's way)
                out.append(k)
        return out

    def obligation(self) -> str | None:
        """What the top card demands beyond matching: ``number 3``, ``colour R``, ``any``."""
        return obligation_of(self.top)

    def plays(self) -> list[tuple[Seat, int]]:
        """The cards played this round, in order (a With a Hand shouted shows as 38)."""
        return self._plays.copy()

    def seen(self, seat: Seat | None) -> HitTheDeckSeen:
        """Everything ``seat`` may see (None: a spectator), as compact facts: the one
        place that decides what a seat sees. :meth:`view` is built from them alone
        (:func:`view_of`), and the learning environments encode them directly."""
        slapping = self.phase == SLAP
        return HitTheDeckSeen(
            seat=seat, seats=self.num_seats, options=self.options, round=self.round,
            dealer=self.dealer, direction=self.direction, phase=self.phase, turn=self.turn,
            to_act=self._to_act, hand=None if seat is None else tuple(self.hand(seat)),
            hand_sizes=tuple(self.sizes), top=self.top, draw_size=len(self.draw),
            discard_size=len(self.discard), last_flip=self.last_flip,
            plays=tuple(self._plays), played=tuple(self._played),
            events=tuple(self._events), slapper=self.slapper if slapping else -1,
            shouted=self.shouted if slapping else False,
            my_slap=self._slap_times[seat] if slapping and seat is not None else -1,
            last_slap=self.last_slap, scores=tuple(self.scores), rounds=tuple(self.rounds),
            legal=self.legal_actions(seat) if seat is not None else (),
            outcome=self._outcome)

    def view(self, seat: object) -> JsonDict:
        n = self.num_seats
        if seat is not None and not (type(seat) is int and 0 <= seat < n):
            raise ValueError(f"there is no seat {seat!r} in this game of Hit the Deck")
        return view_of(self.seen(seat))

    # ------------------------------------------------------------------ search support
    def clone(self) -> HitTheDeckState:
        new = HitTheDeckState(self.game, self.seed, self.num_seats, self.options, self._deck,
                              blank=True)
        new._max_turns = self._max_turns
        new._seats = self._seats
        new._past = self._past
        new._moves = self._moves.copy()
        new._plays = self._plays.copy()
        new._played = self._played.copy()
        new._events = self._events.copy()  # entries are never mutated once appended
        new.scores = self.scores.copy()
        new.rounds = self.rounds.copy()
        new._outcome = self._outcome
        new.last_slap = self.last_slap
        new.round = self.round
        new.dealer = self.dealer
        new.direction = self.direction
        new._rand = self._rand
        new._counts = [c.copy() for c in self._counts]
        new._present = self._present.copy()
        new.sizes = self.sizes.copy()
        new.draw = self.draw.copy()
        new._known = self._known.copy()
        new.discard = self.discard.copy()
        new.top = self.top
        new._unseen = self._unseen
        new._voids = self._voids.copy()
        new._passes = self._passes
        new.last_flip = self.last_flip
        new.slapper = self.slapper
        new.shouted = self.shouted
        new._slap_times = self._slap_times.copy()
        new._slap_order = self._slap_order.copy()
        new.phase = self.phase
        new.turn = self.turn
        new._to_act = self._to_act
        new._legal = self._legal
        new._legal_mask = self._legal_mask
        return new

    def determinize(self, seat: Seat | None, rng: random.Random) -> HitTheDeckState:
        """Other hands, the draw pile's unknown places and the discards no one has seen
        (those turned up by a swap, under the top) are redealt at random (a swap makes the
        old discards, reversed, the draw pile: those everyone saw keep their places, until
        a Flip goes back to a secret place), but a seat that drew keeps clear of the cards
        that would have fitted then (see :data:`Voids`); pending slaps of other seats get
        random times; future shuffles are reseeded."""
        new = self.clone()
        new.seed = rng.getrandbits(63)
        if self.phase == OVER:
            return new
        n = self.num_seats
        hidden = [s for s in range(n) if s != seat]
        known = self._known  # the places in the draw pile everyone can work out
        pool = [k for s in hidden for k in self.hand(s)] \
            + [k for k, public in zip(self.draw, known, strict=True) if not public] \
            + self.discard[:self._unseen]
        pool.sort()
        shuffle(pool, rng)
        # Cards a seat is known to lack (it drew, so nothing it held fitted) are dealt
        # first, from the cards it may hold; the rest of every hand comes after, at random.
        dealt: dict[Seat, list[int]] = {}
        for s in hidden:
            if self._voids[s]:
                dealt[s], pool = _deal_lacking(pool, self._voids[s])
        at = 0
        for s in hidden:
            hand = dealt.get(s, [])
            size = self.sizes[s] - len(hand)
            hand += pool[at:at + size]
            at += size
            counts = [0] * NUM_KINDS
            present = 0
            for k in hand:
                counts[k] += 1
                present |= KIND_BITS[k]
            new._counts[s], new._present[s] = counts, present
        draw = []
        for k, public in zip(self.draw, known, strict=True):
            if public:
                draw.append(k)
            else:
                draw.append(pool[at])
                at += 1
        new.draw = draw
        new.discard = pool[at:] + self.discard[self._unseen:]
        if self.phase == SLAP:
            for i, (s, _) in enumerate(new._slap_order):
                if s != seat:
                    bucket = rng.randrange(SLAP_BUCKETS)
                    new._slap_times[s] = bucket
                    new._slap_order[i] = (s, SLAP_BASE + bucket)
        elif self.phase in (PLAY, DRAWN) and self.turn != seat:
            new._refresh_legal()
        return new

    def _refresh_legal(self) -> None:
        """Recompute the legal actions of the seat to play (after its hand was redealt)."""
        mask = self._present[self.turn] & ACCEPTS[self.top]
        if self.phase == DRAWN:
            self._legal_mask = mask | _PASS_BIT
            self._legal = cards_of_mask(mask) + _PASS_ONLY
        elif mask:
            self._legal_mask, self._legal = mask, cards_of_mask(mask)
        elif self.draw or len(self.discard) > 1:
            self._legal, self._legal_mask = _DRAW_ONLY, _DRAW_BIT
        else:
            self._legal, self._legal_mask = _PASS_ONLY, _PASS_BIT

    def __repr__(self) -> str:
        return (f"<HitTheDeckState seed={self.seed} round={self.round} "
                f"phase={PHASE_NAMES[self.phase]} scores={self.scores}>")


copyreg.pickle(HitTheDeckState, reduce_state)


def round_stop(round: int, moves: int) -> Message:
    """What the players are told when a round reaches the ``max_turns`` safety stop."""
    return Message("Round {round} reached {moves} moves, the most a round may last, and ends "
                   "as if blocked: everyone scores the cards in hand.", round=round,
                   moves=moves)


def match_stop(options: dict[str, Any], scores: Sequence[int], round: int,
               outcome: Outcome | None) -> Message | None:
    """What the players are told when the ``max_rounds`` safety stop ended the game (nobody
    reached the target): None while it goes on, or when the target ended it."""
    if outcome is None or max(scores) >= options["target"]:
        return None
    return plural_message("The game stops after {rounds} round, the most it may last: "
                          "nobody reached {target}, and the lowest total wins.",
                          "The game stops after {rounds} rounds, the most it may last: "
                          "nobody reached {target}, and the lowest total wins.", "rounds",
                          rounds=round, target=options["target"])


def obligation_of(top: int) -> str | None:
    """What a top card demands beyond matching: ``number 3``, ``colour R``, ``any``."""
    if HIT_NUMBER_BASE <= top < HIT_COLOUR_BASE:
        return f"number {number_of(top)}"
    if HIT_COLOUR_BASE <= top < HAND:
        return f"colour {COLOURS[colour_of(top)]}"
    if top == HAND:
        return "any"
    return None


def unfit_reason(phase: int, top: int, kind: int) -> Message:
    """Why a held card of ``kind`` may not be played now, in ``PLAY`` or ``DRAWN``, on
    ``top``."""
    if phase == DRAWN:
        return Message("after drawing you may play only the card you drew (if it fits), or "
                       "pass")
    card = card_named(kind)
    if HIT_NUMBER_BASE <= top < HIT_COLOUR_BASE:
        return Message("{card} does not fit: Hit the Deck With a Number calls for a "
                       "{number} (or a Hit the Deck card)", card=card, number=number_of(top))
    if HIT_COLOUR_BASE <= top < HAND:
        return Message("{card} does not fit: Hit the Deck With a Colour calls for {colour} "
                       "(or a Hit the Deck card)", card=card,
                       colour=Term("colour", COLOUR_NAMES[colour_of(top)]))
    return Message("{card} does not match {top} in colour or number", card=card,
                   top=card_named(top))


@dataclass
class HitTheDeckSeen:
    """What one seat may see of a game of Hit the Deck (``seat`` None: a spectator), as
    compact facts: cards as kinds, actions as ints, seats as ints, no text. Built by
    :meth:`HitTheDeckState.seen`; :func:`view_of` turns it into the view. Never changed once
    built; not ``frozen`` only because a frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``: built on every learning-environment step, it must be
    cheap."""

    seat: Seat | None
    seats: int
    options: dict[str, Any]  # the game's options (never changed)
    round: int
    dealer: Seat
    direction: int  # 1: play goes left, -1: right
    phase: int  # PLAY .. OVER
    turn: Seat  # whose turn it is; -1 in a slap and once over
    to_act: tuple[Seat, ...]
    hand: tuple[int, ...] | None  # the seat's cards as kinds, sorted; None: a spectator
    hand_sizes: tuple[int, ...]
    top: int  # the kind on top of the discard pile
    draw_size: int
    discard_size: int
    last_flip: bool  # a Flip played now goes back (the last card played was a Flip)
    plays: tuple[tuple[Seat, int], ...]  # this round's cards played (38: a shouted Hand)
    played: tuple[int, ...]  # how many of each kind ``plays`` holds (a shouted Hand: 37)
    events: tuple[JsonDict, ...]  # this round's events (never changed once appended)
    slapper: Seat  # in a slap, who played the With a Hand; -1 otherwise
    shouted: bool  # in a slap, it was played with the shout
    my_slap: int  # in a slap, the seat's own slap time in 10 ms steps; -1 not yet
    last_slap: JsonDict | None  # the last slap resolved
    scores: tuple[int, ...]
    rounds: tuple[JsonDict, ...]  # the finished rounds' summaries
    legal: tuple[int, ...]  # the seat's legal actions now
    outcome: Outcome | None

    def __init__(self,
                 seat: Seat | None,
                 seats: int,
                 options: dict[str, Any],
                 round: int,
                 dealer: Seat,
                 direction: int,
                 phase: int,
                 turn: Seat,
                 to_act: tuple[Seat, ...],
                 hand: tuple[int, ...] | None,
                 hand_sizes: tuple[int, ...],
                 top: int,
                 draw_size: int,
                 discard_size: int,
                 last_flip: bool,
                 plays: tuple[tuple[Seat, int], ...],
                 played: tuple[int, ...],
                 events: tuple[JsonDict, ...],
                 slapper: Seat,
                 shouted: bool,
                 my_slap: int,
                 last_slap: JsonDict | None,
                 scores: tuple[int, ...],
                 rounds: tuple[JsonDict, ...],
                 legal: tuple[int, ...],
                 outcome: Outcome | None) -> None:
        # Written out, not generated by ``dataclass``: compiled, it stores the fields
        # directly, where a generated one runs as Python with its arguments in a dict.
        self.seat = seat
        self.seats = seats
        self.options = options
        self.round = round
        self.dealer = dealer
        self.direction = direction
        self.phase = phase
        self.turn = turn
        self.to_act = to_act
        self.hand = hand
        self.hand_sizes = hand_sizes
        self.top = top
        self.draw_size = draw_size
        self.discard_size = discard_size
        self.last_flip = last_flip
        self.plays = plays
        self.played = played
        self.events = events
        self.slapper = slapper
        self.shouted = shouted
        self.my_slap = my_slap
        self.last_slap = last_slap
        self.scores = scores
        self.rounds = rounds
        self.legal = legal
        self.outcome = outcome


def view_of(seen: HitTheDeckSeen) -> JsonDict:
    """The JSON-ready view of what a seat sees, from its facts alone."""
    seat, phase = seen.seat, seen.phase
    slap = None
    if phase == SLAP:
        mine = seen.my_slap * SLAP_STEP_MS if seen.my_slap >= 0 else None
        slap = {"player": seen.slapper, "shouted": seen.shouted,
                "waiting": list(seen.to_act), "mine": mine}
    why_not: dict[str, JsonDict] = {}
    if seen.hand is not None and seat == seen.turn and phase in (PLAY, DRAWN):
        ok = set(seen.legal)
        for kind in sorted(set(seen.hand)):
            if kind not in ok:
                why_not[CARD_TEXT[kind]] = message_to_json(unfit_reason(phase, seen.top, kind))
    text = CARD_TEXT
    action_text = ACTION_TEXT
    stopped = match_stop(seen.options, seen.scores, seen.round, seen.outcome)
    return {
        "game": "hit-the-deck",
        "seat": seat,
        "seats": seen.seats,
        "options": dict(seen.options),
        "round": seen.round,
        "dealer": seen.dealer,
        "direction": "left" if seen.direction == 1 else "right",
        "phase": PHASE_NAMES[phase],
        "turn": seen.turn if seen.turn >= 0 else None,
        "to_act": list(seen.to_act),
        "hand": None if seen.hand is None else [text[k] for k in seen.hand],
        "hand_sizes": list(seen.hand_sizes),
        "top": text[seen.top],
        "obligation": obligation_of(seen.top),
        "draw_size": seen.draw_size,
        "discard_size": seen.discard_size,
        "last_flip": seen.last_flip,
        "played": [[s, action_text[a]] for s, a in seen.plays],
        "events": [dict(e) for e in seen.events],
        "slap": slap,
        "shout_window_ms": SHOUT_WINDOW_MS,
        "last_slap": None if seen.last_slap is None else dict(seen.last_slap),
        "scores": list(seen.scores),
        "rounds": [dict(r) for r in seen.rounds],
        "legal": [action_text[a] for a in seen.legal],
        "why_not": why_not,
        "outcome": seen.outcome.to_json() if seen.outcome else None,
        "stopped": None if stopped is None else message_to_json(stopped),
    }  # how a state is pickled (see the engine)


def say_action(view: JsonDict, action: str) -> Message:
    """A move in words, as a hint or a replay names it ("playing green 2", "drawing a
    card"): the card a play names is in its notation, so the view is not needed."""
    act = GAME.parse_action(action)
    if act == HAND_SHOUT:
        return Message("playing {card} and shouting", card=card_named(HAND))
    if act < NUM_KINDS:
        return Message("playing {card}", card=card_named(act))
    if act == DRAW:
        return Message("drawing a card")
    if act == PASS:
        return Message("passing")
    if act == CUT:
        return Message("cutting the deck")
    if act == SWAP:
        return Message("swapping the piles")
    return Message("slapping after {ms} ms", ms=slap_ms(act))
